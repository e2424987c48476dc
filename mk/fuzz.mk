# SPDX-License-Identifier: MIT
# mk/fuzz.mk - fuzzing (clang's libFuzzer): the libraries again, built by
# clang with coverage and the sanitizers into $(FZ)/ (the fz flavour,
# mk/libs.mk), and each target linked against them like any other program of
# the libraries, by one template; `make fuzz` runs them (scripts/fuzz.sh).

FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_INC   := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L

# $(call fuzzer,TARGET,INPUTS,SYSTEM LIBS): $(T)/TARGET from
# tests/fuzz/TARGET.c and its other sources, objects and libraries.
define fuzzer
$(T)/$(1): tests/fuzz/$(1).c $(2) | $$(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$(FUZZ_CC) $$(FUZZ_INC) $$(WARN) $$(FUZZ_FLAGS) -o $$@ $$^ $(3)
endef

# The table server's message parser (src/net/proto/proto.c).
$(eval $(call fuzzer,fuzz_proto,$(call libs,fz,net host ai core),$$(NET_LIBS) -lm -lpthread))
# The .mo reader, opened from memory (fig_catalog_from_buffer).
$(eval $(call fuzzer,fuzz_mo,$(call libs,fz,host core)))
# The lessons' steps files (host/lesson.h).
$(eval $(call fuzzer,fuzz_lessons,$(call libs,fz,host ai core),-lm -lpthread))
# The finishing orders of `figaro rate` (host/rating_text.h), rated (host/rating.h).
$(eval $(call fuzzer,fuzz_rating,$(call libs,fz,host ai core),-lm -lpthread))
# The service's HTTP paths (net/service/http_path.h): a pure module, alone.
$(eval $(call fuzzer,fuzz_http_path,$(FZ)/$(NET_HTTP_PATH)))
# Web Push subscriptions and the allow list of where the server may post
# (net/push/push_sub.h, net/push/push_addr.h).
$(eval $(call fuzzer,fuzz_push_sub,$(call libs,fz,net host ai core),$$(NET_LIBS) -lm -lpthread))
# Web Push's decryption (net/push/push_crypt.h): bodies a push service hands on.
$(eval $(call fuzzer,fuzz_push_decrypt,$(call libs,fz,net host core),$$(NET_LIBS) -lm -lpthread))
# The FGN target checks the property tests' invariants (tests/unit/invariants.h).
$(eval $(call fuzzer,fuzz_fgn,tests/unit/invariants.c tests/unit/support.c $(call libs,fz,core)))
$(T)/fuzz_fgn: FUZZ_INC += -Itests/unit
# What the server reads of an HTTP request's path and headers (net/wire/webfiles.h,
# net/wire/hosts.h).
$(eval $(call fuzzer,fuzz_http,$(call libs,fz,net core)))
# The FEP target calls the engine's line handler (src/host/fep_engine.c).
$(eval $(call fuzzer,fuzz_fep,$(call libs,fz,host ai core),-lm -lpthread))
# The saved-game header parser, from memory (host/store_header.h).
$(eval $(call fuzzer,fuzz_store_header,$(call libs,fz,host ai core),-lm -lpthread))
# The FEP host's reader: its pure line functions (host/fep_line.h), on the core.
$(eval $(call fuzzer,fuzz_fep_host,$(FZ)/host/fep_line.o $(call libs,fz,core),-lm))

# The fuzz targets (tests/fuzz/targets lists them, with their corpora).
FUZZ_BIN := $(addprefix $(T)/,$(shell sed -n 's/^\(fuzz_[a-z_]*\).*/\1/p' tests/fuzz/targets))
FUZZ_SECONDS ?= 300
FUZZ_JOBS    ?= $(shell nproc)
TEST += $(FUZZ_BIN)
.PHONY: fuzz
# `make fuzz` runs every fuzzer for FUZZ_SECONDS each (default 300) on
# FUZZ_JOBS cores, past crashes; a summary at the end (scripts/fuzz.sh;
# FUZZ_TARGETS: some of them).
## fuzz: run every fuzzer of tests/fuzz/targets, FUZZ_SECONDS each (300)
fuzz: $(FUZZ_BIN)
	@T=$(T) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh scripts/fuzz.sh $(FUZZ_TARGETS)

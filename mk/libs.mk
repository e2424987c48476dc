# SPDX-License-Identifier: MIT
# mk/libs.mk - the flavours of the build, the objects each compiles from src/,
# and the four static libraries (core, ai, host, net) in each flavour that
# links them. A flavour is a folder, a compiler, its compile flags and its
# link flags; the one pattern rule and the one archive rule below are
# instantiated for every flavour ($(eval $(call ...))), and mk/programs.mk's
# `link` links a program in any of them.
#   rel   $(B)        the release build: the caller's CPPFLAGS, CFLAGS, LDFLAGS
#   pic   $(B)/pic    the release objects position-independent (mk/shared.mk)
#   san   $(T)        everything under ASan+UBSan (make test)
#   fz    $(FZ)       the libraries for libFuzzer, by clang (mk/fuzz.mk)
# ThreadSanitizer (build/tsan) and check-quick (build/quick) are the san
# flavour again, in a make of their own with T and SAN set (mk/tests.mk).

FZ          := $(T)/fuzz

rel_DIR     := $(B)
rel_CC       = $(CC)
rel_CFLAGS   = $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH)
rel_LDFLAGS  = $(LDFLAGS)
# The flags the release objects were built with: other flags (MARCH, CFLAGS,
# ...) build them again.
rel_STAMP   := $(B)/.flags

pic_DIR     := $(B)/pic
pic_CC       = $(CC)
pic_CFLAGS   = $(rel_CFLAGS) -fPIC
pic_STAMP   := $(rel_STAMP)

san_DIR     := $(T)
san_CC       = $(CC)
san_CFLAGS   = $(WARN) $(SAN)
san_LDFLAGS  = $(TEST_LDFLAGS)

# Coverage and the sanitizers for the libraries; the targets themselves link
# with -fsanitize=fuzzer (FUZZ_FLAGS, mk/fuzz.mk).
FUZZ_LIB    := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
fz_DIR      := $(FZ)
fz_CC        = $(FUZZ_CC)
fz_CFLAGS    = $(WARN) $(FUZZ_LIB)

$(rel_STAMP): FORCE
	$(call write_if_changed,$(CC) $(CPPFLAGS) $(CFLAGS) $(MARCH) $(WERROR))

# The libraries: the archive's name and its sources.
LIBS         := core ai host net
core_LIB     := libfigaro
core_SRC      = $(CORE_SRC)
ai_LIB       := libfigaro-ai
ai_SRC        = $(AI_SRC)
host_LIB     := libfigaro-host
host_SRC      = $(HOST_SRC)
net_LIB      := libfigaro-net
net_SRC       = $(NET_SRC)

# $(call objs,FLAVOUR,SOURCES): the flavour's objects of src/ sources.
objs = $(patsubst src/%.c,$($(1)_DIR)/%.o,$(2))
# $(call libs,FLAVOUR,LIBS): the flavour's archives of those libraries (e.g.
# "host ai core"), in the order given: the order the linker reads them.
libs = $(foreach l,$(2),$($(1)_DIR)/$($(l)_LIB).a)

# $(call objects,FLAVOUR): DIR/X.o from src/X.c. (Where two flavours' folders
# nest, $(B) and $(T) = build/test, make takes the rule of the shorter stem.)
define objects
$$($(1)_DIR)/%.o: src/%.c $$($(1)_STAMP) | $$(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	$$($(1)_CC) $$(FIG_CPPFLAGS) $$($(1)_CFLAGS) -c $$< -o $$@
endef
$(foreach f,rel pic san fz,$(eval $(call objects,$(f))))

# $(call library,FLAVOUR,LIB): one library of one flavour, archived afresh
# each time: `ar rcs` into an existing archive keeps the members it is not
# given, so the object of a source renamed or removed would stay in it. Its
# list of objects (DIR/.LIB.objects, written when it changes) makes it again
# when a source is removed, which no object's date would tell
# (tests/cli/test_make.sh).
define library
$$(call libs,$(1),$(2)): $$(call objs,$(1),$$($(2)_SRC)) $$($(1)_DIR)/.$$($(2)_LIB).objects
	rm -f $$@
	$$(AR) rcs $$@ $$(filter %.o,$$^)
$$($(1)_DIR)/.$$($(2)_LIB).objects: FORCE
	$$(call write_if_changed,$$(call objs,$(1),$$($(2)_SRC)))
endef
$(foreach f,rel san fz,$(foreach l,$(LIBS),$(eval $(call library,$(f),$(l)))))

ALL += $(call libs,rel,$(LIBS))

# libpq's header is for its back end alone (tests/cli/test_layers.sh).
$(foreach f,rel san fz,$($(f)_DIR)/$(NET_PG_OBJ)): FIG_CPPFLAGS = $(FIG_BASE_CPPFLAGS) $(PQ_CFLAGS)

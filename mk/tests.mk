# SPDX-License-Identifier: MIT
# mk/tests.mk - the unit tests (cmocka programs of tests/unit, sanitizer
# build), what `make test` builds and runs (tests/run.sh), and the two other
# builds of the unit tests: ThreadSanitizer (test-tsan) and check-quick.

UNIT_SRC     := $(wildcard tests/unit/test_*.c)
SUPPORT      := $(wildcard tests/unit/support*.c) tests/unit/invariants.c
SUPPORT_OBJ  := $(SUPPORT:tests/unit/%.c=$(T)/unit/%.o)
UNIT_BIN     := $(UNIT_SRC:tests/unit/%.c=$(T)/%)
# The test binaries tests/run.sh runs (only these: not a stale one left in $(T)).
TEST_BIN     := $(UNIT_BIN) $(T)/test_bits_native

$(T)/unit/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(san_CC) $(FIG_CPPFLAGS) -Itests/unit $(san_CFLAGS) -c $< -o $@

# The tests' objects are kept: as intermediate files of the pattern rule below
# make would delete them after a first build, and the next one (where the .d
# files name them) would compile them all again.
.SECONDARY: $(UNIT_SRC:tests/unit/%.c=$(T)/unit/%.o)
$(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(call libs,san,host ai core)
	$(call link,san) -lcmocka -lm -lpthread

# The table server's tests link its library and what it needs; they read the
# catalogues next to themselves (narration in French and Dutch). The service's
# (test_service*.c, one binary a subject) share a harness: the world, the
# recording wire, the scripted clients (tests/unit/service_harness.h).
SERVICE_NAMES := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_service*.c))
SERVICE_TESTS := $(SERVICE_NAMES:%=$(T)/%)
NET_TESTS := $(SERVICE_TESTS) $(T)/test_proto $(T)/test_db $(T)/test_heap $(T)/test_db_people \
             $(T)/test_rated $(T)/test_http_path $(T)/test_conn_index $(T)/test_push_sub \
             $(T)/test_push_crypt
$(NET_TESTS): $(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(call libs,san,net host ai core)
	$(call link,san) -lcmocka $(NET_LIBS) -lm -lpthread
$(SERVICE_TESTS): $(T)/unit/service_harness.o
$(T)/test_wire: $(T)/unit/test_wire.o $(call libs,san,net host ai core)
	$(call link,san) -lcmocka $(SERVE_LIBS) -lm -lpthread

# Allocation-failure sweeps without a hook in the libraries: the linker sends
# their calls to malloc & co. to tests/unit/alloc_fail.c, which counts them
# and fails the one a test asks for.
WRAP_ALLOC := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup
ALLOC_TESTS := $(T)/test_store $(T)/test_session $(T)/test_alloc $(T)/test_conn_index \
               $(T)/test_util
$(ALLOC_TESTS): TEST_LDFLAGS := $(WRAP_ALLOC)
$(ALLOC_TESTS): $(T)/unit/alloc_fail.o

# The sd_notify datagram of `figaro serve` (src/cli/notify.c), a module of the
# command tested alone.
$(T)/test_notify: $(T)/cli/notify.o

# bits.h dispatches at run time in a portable build and takes the compiler's
# path in one for this processor: test_bits runs both ways.
$(T)/test_bits_native: tests/unit/test_bits.c src/core/bits.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(call link,san) $(NATIVE) -lcmocka

# `make test` builds everything under ASan+UBSan and runs every test, the
# threaded ones under ThreadSanitizer too, side by side (tests/run.sh:
# TEST_JOBS at once, TEST_TIMEOUT s each).
## test: build everything under the sanitizers and run every test
TEST += $(TEST_BIN) $(T)/figaro $(T)/many_matches $(addprefix $(T)/,$(OPPONENTS)) \
        $(call libs,rel,core) $(call libs,san,net) $(B)/train_leaf tsan-build
test:
	@sh tests/run.sh $(T) $(TEST_BIN) $(TSAN_BIN)

# ---- ThreadSanitizer: the unit tests that start threads (the match runner
# and its worker pool, hints, a search on two threads through whole games
# (test_analysis; test_bots' longer searches stay out: 40 s more under
# TSan), the FEP host, the server's service and writer), built again into $(TS)
# with -fsanitize=thread instead of ASan (the two do not mix). `make test`
# runs them with the rest; `make test-tsan` alone.
TS         := build/tsan
TSAN_TESTS := test_match test_hint test_analysis test_fep_host $(SERVICE_NAMES)
TSAN_BIN   := $(TSAN_TESTS:%=$(TS)/%)
TSAN_SAN   := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
.PHONY: tsan-build test-tsan check-quick
## tsan-build: build the threaded unit tests under ThreadSanitizer (build/tsan)
tsan-build: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory T=$(TS) SAN='$(TSAN_SAN)' $(TSAN_BIN)
## test-tsan: the threaded unit tests under ThreadSanitizer alone
test-tsan: tsan-build $(T)/figaro
	@TEST_KINDS=unit sh tests/run.sh $(T) $(TSAN_BIN)

# ---- check-quick: the unit tests built without sanitizers into $(Q), but
# for the slowest suites (QUICK_SKIP: the property sweeps and the long
# searches, which `make test` runs), for the edit-test loop.
Q          := build/quick
# (-Wformat-truncation's guesses depend on the optimizer: without the
# sanitizers, -O1 sees truncations that the real builds do not report.)
QUICK_FLAGS := -O1 -g -Wno-format-truncation
QUICK_SKIP := test_props test_bots test_alloc test_fep_host
QUICK_BIN  := $(filter-out $(QUICK_SKIP:%=$(Q)/%),$(UNIT_BIN:$(T)/%=$(Q)/%))
## check-quick: the unit tests but the slowest, without sanitizers (under a minute)
check-quick: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory T=$(Q) SAN='$(QUICK_FLAGS)' $(QUICK_BIN)
	@TEST_KINDS=unit sh tests/run.sh $(Q) $(QUICK_BIN)

# SPDX-License-Identifier: MIT
# figaro - GNU Makefile.
#   make           build build/figaro and the libraries (release, -O2):
#                  libfigaro.a (core) <- libfigaro-ai.a <- libfigaro-host.a
#                  <- libfigaro-net.a (the table server, below the network)
#   make test      build everything under ASan+UBSan and run every test, the
#                  threaded ones under ThreadSanitizer too, side by side
#                  (tests/run.sh: TEST_JOBS at once, TEST_TIMEOUT s each)
#   make check-quick  the unit tests but the slowest, without sanitizers: the
#                  edit-test loop (under a minute)
#   make test-tsan the threaded unit tests under ThreadSanitizer alone
#   make play      build and start the game
#   make serve     build and start the table server (SERVE_ARGS: its options)
#   make bench     run the benchmarks (release build)
#   make fuzz      run every fuzzer (tests/fuzz/targets) for FUZZ_SECONDS each
#                  (default 300) on FUZZ_JOBS cores, past crashes; a summary
#                  at the end (scripts/fuzz.sh; FUZZ_TARGETS: some of them)
#   make webgz     the browser client's text files gzip-compressed beside
#                  themselves (web/**/F.gz, which `figaro serve` sends; all,
#                  serve, test and install make them too; clean removes them)
#   make deb       build the Debian packages (debian/, dpkg-buildpackage) into
#                  DEB_OUT (default build/deb)
# Missing Debian packages are installed first by scripts/install-deps.sh
# (INSTALL_DEPS=no: not at all, as in the packages' build).
# The caller's CPPFLAGS, CFLAGS and LDFLAGS reach the release build (the
# packages' hardening flags from dpkg-buildflags); the sanitizer builds take
# their own. WERROR= builds without -Werror (the packages: a newer compiler's
# new warning must not break them); the developers' builds keep it.

CC       ?= cc
FUZZ_CC  ?= clang
B        := build
T        := build/test

FIG_CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -MMD -MP
FIG_BASE_CPPFLAGS := $(FIG_CPPFLAGS)
WERROR   ?= -Werror
# -ffp-contract=off: no fused multiply-add, so that search (float UCB) plays the
# same moves for a seed whatever the processor.
WARN     := -std=c11 -ffp-contract=off -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
# The processor the release build is for: by default any of the architecture
# (what `make install` and the packages hold), the few functions where
# popcnt and pdep count chosen at run time (src/core/bits.h);
# `make MARCH=-march=native` builds for this machine alone.
MARCH    ?=
# This machine's instructions when the compiler can tell (test_bits_native).
NATIVE   := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
SAN      := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CLI_LIBS := -ljansson -lncursesw -lm -lpthread

CORE_SRC := $(wildcard src/core/*.c)
AI_SRC   := $(wildcard src/ai/*.c)
HOST_SRC := $(wildcard src/host/*.c)
TUI_SRC  := $(wildcard src/tui/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
NET_SRC  := $(wildcard src/net/*.c)
# The table server's libraries: SQLite and libpq (storage: net/db_sqlite.c,
# net/db_pg.c), jansson (the protocol's JSON), libcrypto (SHA-256 of the
# seats' tokens). libpq's flags come from pkg-config, asked when a recipe
# runs (`=`): on a fresh machine scripts/install-deps.sh installs it first.
PQ_CFLAGS = $(shell pkg-config --cflags libpq)
PQ_LIBS   = $(shell pkg-config --libs libpq)
NET_LIBS   = -lsqlite3 $(PQ_LIBS) -ljansson -lcrypto
# `figaro serve` puts it on the network with libwebsockets on a libuv loop
# (net/wire.c, its loop net/wire_loop.c; lws loads its libuv plugin,
# libwebsockets-evlib-uv, at run time).
SERVE_LIBS = -lwebsockets -luv $(NET_LIBS)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
SUPPORT  := $(wildcard tests/unit/support*.c) tests/unit/invariants.c

CORE_OBJ     := $(CORE_SRC:src/%.c=$(B)/%.o)
AI_OBJ       := $(AI_SRC:src/%.c=$(B)/%.o)
HOST_OBJ     := $(HOST_SRC:src/%.c=$(B)/%.o)
NET_OBJ      := $(NET_SRC:src/%.c=$(B)/%.o)
CLI_OBJ      := $(CLI_SRC:src/%.c=$(B)/%.o) $(TUI_SRC:src/%.c=$(B)/%.o)
CORE_OBJ_T   := $(CORE_SRC:src/%.c=$(T)/%.o)
AI_OBJ_T     := $(AI_SRC:src/%.c=$(T)/%.o)
HOST_OBJ_T   := $(HOST_SRC:src/%.c=$(T)/%.o)
NET_OBJ_T    := $(NET_SRC:src/%.c=$(T)/%.o)
CLI_OBJ_T    := $(CLI_SRC:src/%.c=$(T)/%.o) $(TUI_SRC:src/%.c=$(T)/%.o)
SUPPORT_OBJ  := $(SUPPORT:tests/unit/%.c=$(T)/unit/%.o)
UNIT_BIN     := $(UNIT_SRC:tests/unit/%.c=$(T)/%)
# The test binaries tests/run.sh runs (only these: not a stale one left in $(T)).
TEST_BIN     := $(UNIT_BIN) $(T)/test_bits_native
# The FEP engines of bench/opponents/ (built at the end of this file).
OPPONENTS    := textbook_ismcts expert pimc
DEPS_STAMP   := $(B)/.deps-installed

.PHONY: all test play serve bench fuzz deps clean examples
all: $(B)/figaro $(B)/libfigaro.a $(B)/libfigaro-ai.a $(B)/libfigaro-host.a \
     $(B)/libfigaro-net.a examples

deps: $(DEPS_STAMP)
INSTALL_DEPS ?= yes
$(DEPS_STAMP): scripts/install-deps.sh
	@[ "$(INSTALL_DEPS)" = no ] || sh scripts/install-deps.sh
	@mkdir -p $(B) && touch $@

# libpq's header is for its back end alone (tests/cli/test_layers.sh).
$(B)/net/db_pg.o $(T)/net/db_pg.o $(T)/fuzz/net/db_pg.o: FIG_CPPFLAGS = $(FIG_BASE_CPPFLAGS) $(PQ_CFLAGS)

# ---- release build
# The flags the release objects were built with: other flags (MARCH, CFLAGS,
# ...) build them again.
$(B)/.flags: FORCE
	@mkdir -p $(B); echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(MARCH) $(WERROR)' | cmp -s - $@ || \
	    echo '$(CC) $(CPPFLAGS) $(CFLAGS) $(MARCH) $(WERROR)' > $@

$(B)/%.o: src/%.c $(B)/.flags | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) -c $< -o $@

$(B)/libfigaro.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-ai.a: $(AI_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-host.a: $(HOST_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-net.a: $(NET_OBJ)
	rm -f $@   # a file of src/net renamed must not stay in it
	$(AR) rcs $@ $^

$(B)/figaro: $(CLI_OBJ) $(B)/libfigaro-net.a $(B)/libfigaro-host.a $(B)/libfigaro-ai.a \
             $(B)/libfigaro.a
	$(CC) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ $^ $(SERVE_LIBS) $(CLI_LIBS)

# ---- examples: programs on the libraries' API (examples/*.c), in both builds;
# tests/cli/test_many_matches.sh runs the sanitizer one.
examples: $(B)/many_matches
# (The sources and libraries of $^ only: the headers that -MMD lists as
# prerequisites are not inputs of the link.)
$(B)/many_matches: examples/many_matches.c $(B)/libfigaro-host.a $(B)/libfigaro-ai.a \
                   $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c %.a,$^) -lm -lpthread

# ---- test build: everything under the sanitizers
$(T)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FIG_CPPFLAGS) $(WARN) $(SAN) -c $< -o $@

$(T)/unit/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FIG_CPPFLAGS) -Itests/unit $(WARN) $(SAN) -c $< -o $@

$(T)/libfigaro.a: $(CORE_OBJ_T)
	$(AR) rcs $@ $^

$(T)/libfigaro-ai.a: $(AI_OBJ_T)
	$(AR) rcs $@ $^

$(T)/libfigaro-host.a: $(HOST_OBJ_T)
	$(AR) rcs $@ $^

$(T)/libfigaro-net.a: $(NET_OBJ_T)
	rm -f $@   # a file of src/net renamed must not stay in it
	$(AR) rcs $@ $^

$(T)/figaro: $(CLI_OBJ_T) $(T)/libfigaro-net.a $(T)/libfigaro-host.a $(T)/libfigaro-ai.a \
             $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ $(SERVE_LIBS) $(CLI_LIBS)

$(T)/many_matches: examples/many_matches.c $(T)/libfigaro-host.a $(T)/libfigaro-ai.a \
                   $(T)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(WARN) $(SAN) -o $@ $(filter %.c %.o %.a,$^) -lm -lpthread

# The tests' objects are kept: as intermediate files of the pattern rule below
# make would delete them after a first build, and the next one (where the .d
# files name them) would compile them all again.
.SECONDARY: $(UNIT_SRC:tests/unit/%.c=$(T)/unit/%.o)
$(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(T)/libfigaro-host.a $(T)/libfigaro-ai.a \
              $(T)/libfigaro.a
	$(CC) $(SAN) $(TEST_LDFLAGS) -o $@ $^ -lcmocka -lm -lpthread

# The table server's tests link its library and what it needs; they read the
# catalogues next to themselves (narration in French and Dutch). The service's
# (test_service*.c, one binary a subject) share a harness: the world, the
# recording wire, the scripted clients (tests/unit/service_harness.h).
SERVICE_NAMES := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/test_service*.c))
SERVICE_TESTS := $(SERVICE_NAMES:%=$(T)/%)
NET_TESTS := $(SERVICE_TESTS) $(T)/test_proto $(T)/test_db $(T)/test_heap $(T)/test_db_people \
             $(T)/test_rated $(T)/test_http_path $(T)/test_conn_index
# (The objects before the libraries: the harness, named apart, calls them too.)
$(NET_TESTS): $(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(T)/libfigaro-net.a \
              $(T)/libfigaro-host.a $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(SAN) $(TEST_LDFLAGS) -o $@ $(filter %.o,$^) $(filter %.a,$^) -lcmocka $(NET_LIBS) \
	      -lm -lpthread
$(SERVICE_TESTS): $(T)/unit/service_harness.o
$(T)/test_wire: $(T)/unit/test_wire.o $(T)/libfigaro-net.a $(T)/libfigaro-host.a \
                $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ -lcmocka $(SERVE_LIBS) -lm -lpthread

# Allocation-failure sweeps without a hook in the libraries: the linker sends
# their calls to malloc & co. to tests/unit/alloc_fail.c, which counts them
# and fails the one a test asks for.
WRAP_ALLOC := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup
ALLOC_TESTS := $(T)/test_store $(T)/test_session $(T)/test_alloc $(T)/test_conn_index
$(ALLOC_TESTS): TEST_LDFLAGS := $(WRAP_ALLOC)
$(ALLOC_TESTS): $(T)/unit/alloc_fail.o

# The sd_notify datagram of `figaro serve` (src/cli/notify.c), a module of the
# command tested alone.
$(T)/test_notify: $(T)/cli/notify.o

# bits.h dispatches at run time in a portable build and takes the compiler's
# path in one for this processor: test_bits runs both ways.
$(T)/test_bits_native: tests/unit/test_bits.c src/core/bits.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Isrc $(WARN) $(SAN) $(NATIVE) -o $@ $< -lcmocka

# ---- fuzzing (clang's libFuzzer): the libraries again, built by clang with
# coverage and the sanitizers into $(FZ)/, and each target linked against
# them like any other program of the libraries.
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_LIB   := -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FZ         := $(T)/fuzz
$(FZ)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FIG_CPPFLAGS) $(WARN) $(FUZZ_LIB) -c $< -o $@

$(FZ)/libfigaro.a: $(CORE_SRC:src/%.c=$(FZ)/%.o)
	$(AR) rcs $@ $^
$(FZ)/libfigaro-ai.a: $(AI_SRC:src/%.c=$(FZ)/%.o)
	$(AR) rcs $@ $^
$(FZ)/libfigaro-host.a: $(HOST_SRC:src/%.c=$(FZ)/%.o)
	$(AR) rcs $@ $^
$(FZ)/libfigaro-net.a: $(NET_SRC:src/%.c=$(FZ)/%.o)
	rm -f $@   # a file of src/net renamed must not stay in it
	$(AR) rcs $@ $^

# The table server's message parser (src/net/proto.c).
$(T)/fuzz_proto: tests/fuzz/fuzz_proto.c $(FZ)/libfigaro-net.a $(FZ)/libfigaro-host.a \
                 $(FZ)/libfigaro-ai.a $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^ \
	    $(NET_LIBS) -lm -lpthread

# The .mo reader, opened from memory (fig_catalog_from_buffer).
$(T)/fuzz_mo: tests/fuzz/fuzz_mo.c $(FZ)/libfigaro-host.a $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^

# The lessons' steps files (host/lesson.h).
$(T)/fuzz_lessons: tests/fuzz/fuzz_lessons.c $(FZ)/libfigaro-host.a $(FZ)/libfigaro-ai.a \
                   $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^ \
	    -lm -lpthread

# The finishing orders of `figaro rate` (host/rating_text.h), rated (host/rating.h).
$(T)/fuzz_rating: tests/fuzz/fuzz_rating.c $(FZ)/libfigaro-host.a $(FZ)/libfigaro-ai.a \
                  $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^ \
	    -lm -lpthread

# The service's HTTP paths (net/http_path.h): a pure module, alone.
$(T)/fuzz_http_path: tests/fuzz/fuzz_http_path.c $(FZ)/net/http_path.o | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^

# The FGN target checks the property tests' invariants (tests/unit/invariants.h).
FGN_FUZZ_SRC := tests/fuzz/fuzz_fgn.c tests/unit/invariants.c tests/unit/support.c
$(T)/fuzz_fgn: $(FGN_FUZZ_SRC) $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -Itests/unit -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) \
	    -o $@ $^

# What the server reads of an HTTP request's path and headers (net/webfiles.h,
# net/hosts.h).
$(T)/fuzz_http: tests/fuzz/fuzz_http.c $(FZ)/libfigaro-net.a $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^

# The FEP target calls the engine's line handler (src/host/fep_engine.c).
$(T)/fuzz_fep: tests/fuzz/fuzz_fep.c $(FZ)/libfigaro-host.a $(FZ)/libfigaro-ai.a \
               $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^ \
	    -lm -lpthread

# The saved-game header parser, from memory (host/store.h).
$(T)/fuzz_store_header: tests/fuzz/fuzz_store_header.c $(FZ)/libfigaro-host.a \
                        $(FZ)/libfigaro-ai.a $(FZ)/libfigaro.a | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L $(WARN) $(FUZZ_FLAGS) -o $@ $^ \
	    -lm -lpthread

# The FEP host's reader: its pure line functions, with the libraries they use.
$(T)/fuzz_fep_host: tests/fuzz/fuzz_fep_host.c src/host/fep_host.c src/host/util.c $(AI_SRC) \
                    $(CORE_SRC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ $^ \
	    -lm -lpthread

# The fuzz targets (tests/fuzz/targets lists them, with their corpora).
FUZZ_BIN := $(addprefix $(T)/,$(shell sed -n 's/^\(fuzz_[a-z_]*\).*/\1/p' tests/fuzz/targets))
FUZZ_SECONDS ?= 300
FUZZ_JOBS    ?= $(shell nproc)
fuzz: $(FUZZ_BIN)
	@T=$(T) FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) sh scripts/fuzz.sh $(FUZZ_TARGETS)

test: $(TEST_BIN) $(T)/figaro $(FUZZ_BIN) $(T)/many_matches $(addprefix $(T)/,$(OPPONENTS)) \
      $(B)/libfigaro.a $(T)/libfigaro-net.a $(B)/train_leaf tsan-build
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
tsan-build: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory T=$(TS) SAN='$(TSAN_SAN)' $(TSAN_BIN)
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
check-quick: | $(DEPS_STAMP)
	@$(MAKE) --no-print-directory T=$(Q) SAN='$(QUICK_FLAGS)' $(QUICK_BIN)
	@TEST_KINDS=unit sh tests/run.sh $(Q) $(QUICK_BIN)

bench: $(B)/figaro
	$(B)/figaro bench

# The learned leaf of the search bot (src/ai/leaf.h): its trainer, and the
# weights written again from the trainer's default seed (docs/bots.md).
$(B)/train_leaf: bench/train_leaf.c $(B)/libfigaro-ai.a $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c %.a,$^) -lm -lpthread

# What a hint costs (docs/bots.md, Hints): the hint's search timed at every
# move of a seat.
$(B)/hint_time: bench/hint_time.c $(B)/libfigaro-ai.a $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c %.a,$^) -lm -lpthread

# What the lobby costs the loop, by its size (docs/server.md, Lobby).
$(B)/lobby_cost: bench/lobby_cost.c $(B)/libfigaro-net.a $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c %.a,$^) $(NET_LIBS) -lm -lpthread

# What finding a person's connections costs the loop, by their number
# (docs/scaling.md).
$(B)/person_cost: bench/person_cost.c $(B)/libfigaro-net.a $(B)/libfigaro-host.a $(B)/libfigaro-ai.a \
                  $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c %.a,$^) $(NET_LIBS) -lm -lpthread

# The people of bench/server_bench.py in C (--load-client): a load that costs
# its machine less than the server it measures.
$(B)/server_load: bench/server_load.c
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< -ljansson

.PHONY: leaf-weights
leaf-weights: $(B)/train_leaf
	$(B)/train_leaf > src/ai/leaf_weights.c.new && mv src/ai/leaf_weights.c.new src/ai/leaf_weights.c

play: $(B)/figaro
	$(B)/figaro play

# `make serve SERVE_ARGS='--listen 0.0.0.0:8080'`: the table server (docs/server.md).
serve: $(B)/figaro
	$(B)/figaro serve $(SERVE_ARGS)

# ---- shared libraries (docs/python.md) ----------------------------
# libfigaro.so is the core alone (libc only); libfigaro-ai.so holds the bots
# (pthreads, libm) and needs libfigaro.so. Both are built from their own
# position-independent objects in $(B)/pic, export only the fig_ names
# (src/exports.map), and carry the soname lib...so.MAJOR. The Python package
# (python/figaro) loads them from $(B) in the source tree; `make test` builds
# them because the Python tests use these plain -O2 libraries (a sanitized
# library cannot be loaded into an unsanitized python3 without LD_PRELOAD).
# `pip install ./python` builds them with this target too, into a scratch
# folder (python/figaro_build.py: make B=DIR INSTALL_DEPS=no WERROR= shared).
VERSION      := $(shell sed -n 's/^\#define FIG_VERSION "\(.*\)"/\1/p' include/figaro/figaro.h)
SOMAJOR      := $(firstword $(subst ., ,$(VERSION)))
PIC_CORE_OBJ := $(CORE_SRC:src/%.c=$(B)/pic/%.o)
PIC_AI_OBJ   := $(AI_SRC:src/%.c=$(B)/pic/%.o)
SO_LDFLAGS   := -shared -Wl,--version-script=src/exports.map -Wl,--no-undefined -Wl,-z,relro \
                -Wl,-z,now
SHARED       := $(B)/libfigaro.so.$(VERSION) $(B)/libfigaro.so.$(SOMAJOR) $(B)/libfigaro.so \
                $(B)/libfigaro-ai.so.$(VERSION) $(B)/libfigaro-ai.so.$(SOMAJOR) \
                $(B)/libfigaro-ai.so

.PHONY: shared
shared: $(SHARED)
all: $(SHARED)
test: $(SHARED)

$(B)/pic/%.o: src/%.c $(B)/.flags | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) -fPIC -c $< -o $@

$(B)/libfigaro.so.$(VERSION): $(PIC_CORE_OBJ) src/exports.map
	$(CC) $(CFLAGS) $(MARCH) $(LDFLAGS) $(SO_LDFLAGS) -Wl,-soname,libfigaro.so.$(SOMAJOR) -o $@ \
	    $(PIC_CORE_OBJ)

# Linked against the core's shared library by path: its soname becomes the
# dependency (DT_NEEDED libfigaro.so.MAJOR).
$(B)/libfigaro-ai.so.$(VERSION): $(PIC_AI_OBJ) $(B)/libfigaro.so.$(VERSION) src/exports.map
	$(CC) $(CFLAGS) $(MARCH) $(LDFLAGS) $(SO_LDFLAGS) -Wl,-soname,libfigaro-ai.so.$(SOMAJOR) -o $@ \
	    $(PIC_AI_OBJ) $(B)/libfigaro.so.$(VERSION) -lpthread -lm

$(B)/libfigaro.so.$(SOMAJOR) $(B)/libfigaro-ai.so.$(SOMAJOR): $(B)/%.so.$(SOMAJOR): \
        $(B)/%.so.$(VERSION)
	ln -sf $(notdir $<) $@
$(B)/libfigaro.so $(B)/libfigaro-ai.so: $(B)/%.so: $(B)/%.so.$(SOMAJOR)
	ln -sf $(notdir $<) $@
# ---- end of shared libraries ------------------------------------------------

# ---- install, uninstall (GNU conventions; docs/python.md, docs/development.md) -----------
# `make install PREFIX=/usr DESTDIR=/tmp/stage` installs the command, the shared
# and static libraries, the public headers, figaro.pc, figaro-ai.pc and
# figaro-host.pc for pkg-config, the translations, the man pages (man 3: the C
# API, made from the headers by scripts/man3.py), the documents of the
# formats (DOCDIR), the Python package and the browser client's
# files (DATADIR/figaro/web, for `figaro serve`); each
# directory can be set alone (BINDIR, LIBDIR, INCLUDEDIR, DATADIR, MANDIR,
# DOCDIR, PYTHONDIR, PKGCONFIGDIR). The host layer (the match runner of
# figaro/match.h) is a static library alone: its interface is young, a
# shared one would promise an ABI. The command looks for its translations next to
# itself (BINDIR/../share/locale), then in DATADIR/locale (compiled in: a
# DATADIR given to `make install` rebuilds the command for it).
# `make uninstall` with the same variables removes exactly what was installed.
PREFIX       ?= /usr/local
EXEC_PREFIX  ?= $(PREFIX)
BINDIR       ?= $(EXEC_PREFIX)/bin
LIBDIR       ?= $(EXEC_PREFIX)/lib
INCLUDEDIR   ?= $(PREFIX)/include
DATAROOTDIR  ?= $(PREFIX)/share
DATADIR      ?= $(DATAROOTDIR)
MANDIR       ?= $(DATAROOTDIR)/man
DOCDIR       ?= $(DATAROOTDIR)/doc/figaro
# Where an installed command finds the catalogues when not next to itself;
# the stamp holds the DATADIR the command was built with, so a new one given
# to `make install` rebuilds what depends on it.
$(B)/cli/i18n.o $(T)/cli/i18n.o: FIG_CPPFLAGS += -DLOCALEDIR='"$(DATADIR)/locale"'
# Where an installed `figaro serve` finds the browser client when not beside it.
$(B)/cli/serve.o $(T)/cli/serve.o: FIG_CPPFLAGS += -DFIG_WEBDIR='"$(DATADIR)/figaro/web"'
$(B)/cli/serve.o: $(B)/.datadir
# ... and `figaro learn` its lessons.
$(B)/cli/learn.o $(T)/cli/learn.o: FIG_CPPFLAGS += -DFIG_LESSONDIR='"$(DATADIR)/figaro/lessons"'
$(B)/cli/learn.o: $(B)/.datadir
$(B)/cli/i18n.o: $(B)/.datadir
$(B)/.datadir: FORCE
	@mkdir -p $(B); echo '$(DATADIR)' | cmp -s - $@ || echo '$(DATADIR)' > $@
.PHONY: FORCE
FORCE:
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
PYTHON       ?= python3
PYVER        := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])' \
                  2>/dev/null || echo 3)
PYTHONDIR    ?= $(LIBDIR)/python$(PYVER)/dist-packages
# The library directory the Python package is told (_paths.py); empty: none,
# the dynamic loader's path (the packages: one python3-figaro for every
# architecture).
PY_LIBDIR    ?= $(LIBDIR)
INSTALL      ?= install
HEADERS      := $(wildcard include/figaro/*.h)
MANPAGES     := man/figaro.1 man/figaro-fgn.5 man/figaro-fep.7
# The documents the man pages point to (DOCDIR).
DOCS         := docs/fgn.md docs/fep.md docs/engine.md docs/python.md docs/protocol.md \
                docs/server.md
PYFILES      := $(wildcard python/figaro/*.py)
# The browser client `figaro serve` serves (DATADIR/figaro/web once installed).
WEBFILES     := $(wildcard web/*.html web/*.js web/*.css web/*.svg web/*.webmanifest web/*.png \
                          web/*.ico)
# The lessons of `figaro learn` (DATADIR/figaro/lessons once installed).
LESSONFILES  := lessons/lessons.steps $(wildcard lessons/*.fgn)
# Its translations, made from po/ by `make` (web/i18n/LANG.json, not in git);
# the pages loaded when asked for have theirs apart (web/i18n/later-LANG.json, WEB_LATER_JS).
WEBI18N       = $(LANGS:%=web/i18n/%.json) $(LANGS:%=web/i18n/later-%.json)
# The rules and the player aid it shows, written by `figaro rules --json` from
# the terminal's text and catalogues (web/rules/LANG.json, not in git).
WEBRULES      = $(addprefix web/rules/,$(addsuffix .json,en $(LANGS)))
# The lessons of `figaro learn` played out for the page, written by
# `figaro learn --played` (web/lessons/LANG.json, not in git).
WEBLESSONS    = $(addprefix web/lessons/,$(addsuffix .json,en $(LANGS)))

.PHONY: install uninstall
# The pkg-config files, with this installation's directories, under prefix
# when they are (pkg-config --define-prefix, and PKG_CONFIG_SYSROOT_DIR, can
# then move them).
PC_DIRS = 'prefix=$(PREFIX)' 'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' \
          'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))' ''
PCFILES := $(B)/figaro.pc $(B)/figaro-ai.pc $(B)/figaro-host.pc
$(B)/figaro.pc: include/figaro/figaro.h Makefile
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro' \
	    'Description: rules engine of Reiner Knizia'"'"'s card game Figaro (libc only)' \
	    'Version: $(VERSION)' \
	    'Libs: -L$${libdir} -lfigaro' 'Cflags: -I$${includedir}' > $@
$(B)/figaro-ai.pc: include/figaro/figaro.h Makefile
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro-ai' \
	    'Description: the bots of figaro: random, greedy, ISMCTS' 'Version: $(VERSION)' \
	    'Requires: figaro = $(VERSION)' 'Libs: -L$${libdir} -lfigaro-ai' \
	    'Libs.private: -lpthread -lm' 'Cflags: -I$${includedir}' > $@
# A static library alone: its own needs are in Libs.
$(B)/figaro-host.pc: include/figaro/figaro.h Makefile
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro-host' \
	    'Description: the match runner of figaro (figaro/match.h; static library)' \
	    'Version: $(VERSION)' 'Requires: figaro-ai = $(VERSION)' \
	    'Libs: -L$${libdir} -lfigaro-host -lpthread -lm' 'Cflags: -I$${includedir}' > $@
.PHONY: $(PCFILES)   # the directories come from the command line

# man 3: a page per public header, and one per function that points to it
# (scripts/man3.py reads the headers' comments).
$(B)/man3/.stamp: $(HEADERS) scripts/man3.py
	@rm -rf $(B)/man3 && mkdir -p $(B)/man3
	/usr/bin/python3 scripts/man3.py --version $(VERSION) --out $(B)/man3 $(HEADERS)
	@touch $@
all: $(B)/man3/.stamp

# The page's files keep their times (install -p): a gzip copy stays not older
# than its file, which `figaro serve` checks before it sends one.
install: all $(PCFILES)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/figaro \
	    $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 $(DESTDIR)$(DOCDIR) \
	    $(DESTDIR)$(PYTHONDIR)/figaro
	$(INSTALL) -m 755 $(B)/figaro $(DESTDIR)$(BINDIR)/figaro
	$(INSTALL) -m 755 $(B)/libfigaro.so.$(VERSION) $(B)/libfigaro-ai.so.$(VERSION) \
	    $(DESTDIR)$(LIBDIR)/
	for l in libfigaro libfigaro-ai; do \
	    ln -sf $$l.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$$l.so.$(SOMAJOR) && \
	    ln -sf $$l.so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/$$l.so || exit 1; \
	done
	$(INSTALL) -m 644 $(B)/libfigaro.a $(B)/libfigaro-ai.a $(B)/libfigaro-host.a \
	    $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/figaro/
	$(INSTALL) -m 644 $(PCFILES) $(DESTDIR)$(PKGCONFIGDIR)/
	for l in $(LANGS); do \
	    $(INSTALL) -d $(DESTDIR)$(DATADIR)/locale/$$l/LC_MESSAGES && \
	    $(INSTALL) -m 644 $(B)/locale/$$l/LC_MESSAGES/figaro.mo \
	        $(DESTDIR)$(DATADIR)/locale/$$l/LC_MESSAGES/figaro.mo || exit 1; \
	done
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/figaro/web
	$(INSTALL) -p -m 644 $(WEBFILES) $(DESTDIR)$(DATADIR)/figaro/web/
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/figaro/lessons
	$(INSTALL) -m 644 $(LESSONFILES) $(DESTDIR)$(DATADIR)/figaro/lessons/
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/figaro/web/i18n
	$(INSTALL) -p -m 644 $(WEBI18N) $(DESTDIR)$(DATADIR)/figaro/web/i18n/
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/figaro/web/rules
	$(INSTALL) -p -m 644 $(WEBRULES) $(DESTDIR)$(DATADIR)/figaro/web/rules/
	$(INSTALL) -d $(DESTDIR)$(DATADIR)/figaro/web/lessons
	$(INSTALL) -p -m 644 $(WEBLESSONS) $(DESTDIR)$(DATADIR)/figaro/web/lessons/
	for f in $(WEBGZ); do \
	    $(INSTALL) -p -m 644 $$f $(DESTDIR)$(DATADIR)/figaro/$$f || exit 1; \
	done
	for m in $(MANPAGES); do \
	    sed 's|@DOCDIR@|$(DOCDIR)|g' $$m > $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/} && \
	    chmod 644 $(DESTDIR)$(MANDIR)/man$${m##*.}/$${m##*/} || exit 1; \
	done
	cp -P $(B)/man3/*.3 $(DESTDIR)$(MANDIR)/man3/
	$(INSTALL) -m 644 $(DOCS) $(DESTDIR)$(DOCDIR)/
	$(INSTALL) -m 644 $(filter-out python/figaro/_paths.py,$(PYFILES)) \
	    $(DESTDIR)$(PYTHONDIR)/figaro/
	sed '$(if $(PY_LIBDIR),s|^LIBDIR = None$$|LIBDIR = "$(PY_LIBDIR)"|)' python/figaro/_paths.py \
	    > $(DESTDIR)$(PYTHONDIR)/figaro/_paths.py
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    ldconfig; fi

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/figaro
	for l in libfigaro libfigaro-ai; do \
	    rm -f $(DESTDIR)$(LIBDIR)/$$l.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$$l.so.$(SOMAJOR) \
	        $(DESTDIR)$(LIBDIR)/$$l.so $(DESTDIR)$(LIBDIR)/$$l.a; \
	done
	rm -f $(DESTDIR)$(LIBDIR)/libfigaro-host.a
	rm -f $(HEADERS:include/figaro/%=$(DESTDIR)$(INCLUDEDIR)/figaro/%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/figaro
	rm -f $(PCFILES:$(B)/%=$(DESTDIR)$(PKGCONFIGDIR)/%)
	for l in $(LANGS); do rm -f $(DESTDIR)$(DATADIR)/locale/$$l/LC_MESSAGES/figaro.mo; done
	rm -f $(WEBFILES:web/%=$(DESTDIR)$(DATADIR)/figaro/web/%)
	rm -f $(WEBGZ:web/%=$(DESTDIR)$(DATADIR)/figaro/web/%)
	rm -f $(WEBI18N:web/%=$(DESTDIR)$(DATADIR)/figaro/web/%)
	-rmdir $(DESTDIR)$(DATADIR)/figaro/web/i18n
	rm -f $(WEBRULES:web/%=$(DESTDIR)$(DATADIR)/figaro/web/%)
	-rmdir $(DESTDIR)$(DATADIR)/figaro/web/rules
	rm -f $(WEBLESSONS:web/%=$(DESTDIR)$(DATADIR)/figaro/web/%)
	-rmdir $(DESTDIR)$(DATADIR)/figaro/web/lessons
	rm -f $(LESSONFILES:lessons/%=$(DESTDIR)$(DATADIR)/figaro/lessons/%)
	-rmdir $(DESTDIR)$(DATADIR)/figaro/lessons
	-rmdir $(DESTDIR)$(DATADIR)/figaro/web $(DESTDIR)$(DATADIR)/figaro
	rm -f $(DESTDIR)$(MANDIR)/man1/figaro.1 $(DESTDIR)$(MANDIR)/man5/figaro-fgn.5 \
	    $(DESTDIR)$(MANDIR)/man7/figaro-fep.7
	for m in $(B)/man3/*.3; do rm -f $(DESTDIR)$(MANDIR)/man3/$${m##*/}; done
	rm -f $(DOCS:docs/%=$(DESTDIR)$(DOCDIR)/%)
	-rmdir $(DESTDIR)$(DOCDIR)
	rm -f $(PYFILES:python/figaro/%=$(DESTDIR)$(PYTHONDIR)/figaro/%)
	rm -rf $(DESTDIR)$(PYTHONDIR)/figaro/__pycache__
	-rmdir $(DESTDIR)$(PYTHONDIR)/figaro
# ---- end of install ---------------------------------------------------------

# ---- translations (GNU gettext; docs/translations.md) ----------------------
# po/figaro.pot is the template, generated from the sources and committed;
# po/LANG.po are the catalogues, compiled into $(B)/locale/LANG/LC_MESSAGES/
# figaro.mo (and $(T)/locale/... for the test build), where the program finds
# them next to itself. `make pot` regenerates the template and merges it into
# every catalogue; the build only compiles, it never rewrites po/.
# The languages but English are those of po/*.po; test_lang checks that they
# are those of src/host/lang.c's table, which the server and its page follow.
LANGS      := $(sort $(patsubst po/%.po,%,$(wildcard po/*.po)))
POT_SRC    := $(sort $(wildcard src/cli/*.c src/tui/*.c src/host/*.c src/net/*.c src/core/*.c \
                                src/ai/*.c))
# The lessons' texts: the steps file writes them _("..."), which xgettext's C
# parser reads as it is (docs/lessons.md).
LESSON_POT := lessons/lessons.steps
# The options every xgettext run here shares (the C sources, web/*.js, the page's levels).
XGETTEXT_COMMON := xgettext --from-code=UTF-8 --sort-output --add-location=file \
                   --add-comments=TRANSLATORS: --package-name=figaro
XGETTEXT   := $(XGETTEXT_COMMON) --language=C --keyword=_ --keyword=N_ --keyword=N_LEVEL \
              --keyword=fig_tr_text:2 --keyword=fig_tr_plural:2,3
MO         := $(LANGS:%=$(B)/locale/%/LC_MESSAGES/figaro.mo)
MO_T       := $(LANGS:%=$(T)/locale/%/LC_MESSAGES/figaro.mo)

.PHONY: pot pot-to
all: $(MO)
test: $(MO_T)
$(B)/figaro: | $(MO)
$(T)/figaro: | $(MO_T)
# Unit tests that read the real catalogues (host/lang.h, narration in French
# and Dutch) find them next to themselves, in $(T)/locale.
$(T)/test_lang $(T)/test_narrate $(SERVICE_TESTS) $(T)/test_lesson: | $(MO_T)

# msgfmt --check fails the build on a broken catalogue (format strings that do
# not match their msgid, bad headers); --statistics says what is left to do.
# (Two rules: one pattern rule with two targets would be one grouped recipe.)
$(B)/locale/%/LC_MESSAGES/figaro.mo: po/%.po | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	msgfmt --check --statistics -o $@ $<
$(T)/locale/%/LC_MESSAGES/figaro.mo: po/%.po | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	msgfmt --check --statistics -o $@ $<

# The browser client's messages (web/*.js): _("...") and ngettext("...", "...", n),
# added to the same template with xgettext's JavaScript parser.
WEB_JS       := $(sort $(wildcard web/*.js))
XGETTEXT_JS  := $(XGETTEXT_COMMON) --language=JavaScript --keyword=_ --keyword=ngettext:1,2

# `make pot-to POT_OUT=FILE` writes a fresh template to FILE (tests compare it
# with po/figaro.pot, POT-Creation-Date aside).
pot-to:
	@test -n "$(POT_OUT)" || { echo "usage: make pot-to POT_OUT=FILE" >&2; exit 2; }
	@$(XGETTEXT) -o $(POT_OUT) $(POT_SRC) $(LESSON_POT)
	@$(XGETTEXT_JS) --join-existing -o $(POT_OUT) $(WEB_JS)

# The browser client's translations: only the messages of web/*.js and the bot
# levels' names (N_LEVEL in the C sources that name them: the server sends the
# levels, the page shows their names), from the same catalogues (po2json.py).
LEVEL_SRC    := src/ai/bot.c src/net/names.c
XGETTEXT_LVL := $(XGETTEXT_COMMON) --language=C --keyword --keyword=N_LEVEL
all: $(WEBI18N)
test: $(WEBI18N)
serve: $(WEBI18N)
# The pages loaded when asked for (the lessons, the replays, the people's
# pages, and the modules only they load) have their words in a catalogue of
# their own (web/i18n/later-LANG.json, i18n.js addCatalog), which a table's page does
# not carry (its load stays within its budgets: tests/web/look.spec.js).
WEB_LATER_JS := web/learn.js web/replay.js web/people_page.js web/plot.js web/qr.js
$(B)/web.pot: $(WEB_JS) $(LEVEL_SRC) | $(DEPS_STAMP)
	@mkdir -p $(B)
	$(XGETTEXT_JS) --force-po -o $@ $(filter-out $(WEB_LATER_JS),$(WEB_JS))
	$(XGETTEXT_LVL) --join-existing -o $@ $(LEVEL_SRC)
$(B)/web-later.pot: $(WEB_LATER_JS) | $(DEPS_STAMP)
	@mkdir -p $(B)
	$(XGETTEXT_JS) --force-po -o $@ $(WEB_LATER_JS)
web/i18n/%.json: po/%.po $(B)/web.pot scripts/po2json.py
	@mkdir -p web/i18n
	/usr/bin/python3 scripts/po2json.py $(B)/web.pot $< > $@.tmp && mv $@.tmp $@
$(LANGS:%=web/i18n/later-%.json): web/i18n/later-%.json: po/%.po $(B)/web-later.pot scripts/po2json.py
	@mkdir -p web/i18n
	/usr/bin/python3 scripts/po2json.py $(B)/web-later.pot $< > $@.tmp && mv $@.tmp $@

# The page's rules (WEBRULES): written by the program `make test` builds under
# it, else by the build's, with the catalogues next to it.
RULES_BY     ?= $(if $(filter test,$(MAKECMDGOALS)),$(T)/figaro,$(B)/figaro)
all: $(WEBRULES)
test: $(WEBRULES)
serve: $(WEBRULES)
web/rules/en.json: $(RULES_BY)
	@mkdir -p web/rules
	$(RULES_BY) rules --json --lang en > $@.tmp && mv $@.tmp $@
$(LANGS:%=web/rules/%.json): web/rules/%.json: $(RULES_BY) $(dir $(RULES_BY))locale/%/LC_MESSAGES/figaro.mo
	@mkdir -p web/rules
	$(RULES_BY) rules --json --lang $* > $@.tmp && mv $@.tmp $@

# The page's lessons (WEBLESSONS): the same program, from the lessons' files.
all: $(WEBLESSONS)
test: $(WEBLESSONS)
serve: $(WEBLESSONS)
web/lessons/en.json: $(RULES_BY) $(LESSONFILES)
	@mkdir -p web/lessons
	$(RULES_BY) learn --played --lang en --lessons lessons > $@.tmp && mv $@.tmp $@
$(LANGS:%=web/lessons/%.json): web/lessons/%.json: $(RULES_BY) $(LESSONFILES) $(dir $(RULES_BY))locale/%/LC_MESSAGES/figaro.mo
	@mkdir -p web/lessons
	$(RULES_BY) learn --played --lang $* --lessons lessons > $@.tmp && mv $@.tmp $@

# The page's text files compressed beside themselves (F.gz, gzip -9 -n: no
# name, no time, the same bytes at every build), which `figaro serve` sends
# in F's place to a browser that takes gzip, while F.gz is not older than F
# (net/webfiles.h): what a phone receives is these. Not in git.
WEBGZ = $(addsuffix .gz,$(filter %.html %.js %.css %.svg %.webmanifest %.json %.txt,\
                                 $(WEBFILES) $(WEBI18N) $(WEBRULES) $(WEBLESSONS)))
.PHONY: webgz
webgz: $(WEBGZ)
all: $(WEBGZ)
test: $(WEBGZ)
serve: $(WEBGZ)
web/%.gz: web/%
	gzip -9 -n -c $< > $@.tmp && mv $@.tmp $@

# The template is replaced only when more than its date changed, so it stays
# stable in git; then every catalogue takes the new and changed messages.
pot: | $(DEPS_STAMP)
	@mkdir -p $(B)
	$(XGETTEXT) -o $(B)/figaro.pot $(POT_SRC) $(LESSON_POT)
	$(XGETTEXT_JS) --join-existing -o $(B)/figaro.pot $(WEB_JS)
	@if [ -f po/figaro.pot ] && diff -q -I '^"POT-Creation-Date:' po/figaro.pot \
	     $(B)/figaro.pot >/dev/null; then \
	    echo "po/figaro.pot is up to date"; rm -f $(B)/figaro.pot; \
	else mv $(B)/figaro.pot po/figaro.pot; echo "po/figaro.pot regenerated"; fi
	@for l in $(LANGS); do \
	    printf 'po/%s.po: ' $$l; \
	    msgmerge --quiet --update --backup=none --sort-output --add-location=file \
	        po/$$l.po po/figaro.pot && msgfmt --check --statistics -o /dev/null po/$$l.po \
	        || exit 1; \
	done
# ---- end of translations ---------------------------------------------------

# ---- Debian packages (debian/; docs/development.md) ----------------------------
# `make deb` copies the sources (no build/, no git) to DEB_OUT/figaro-VERSION,
# builds the binary packages there with dpkg-buildpackage (-us -uc -b, DEB_JOBS
# jobs), leaves the .deb files in DEB_OUT and runs lintian on them (errors
# fail; debian/*.lintian-overrides say why what is left stays).
# tests/cli/test_deb.sh builds them into a folder of its own and runs them.
DEB_OUT  ?= $(B)/deb
DEB_JOBS ?= 2
DEB_SRC   = $(abspath $(DEB_OUT))/figaro-$(VERSION)
.PHONY: deb
deb: | $(DEPS_STAMP)
	rm -rf $(DEB_SRC) && mkdir -p $(DEB_SRC)
	tar -cf - --exclude=./build --exclude=./.git --exclude=./tests/web/node_modules \
	    --exclude=./web/i18n --exclude=./web/rules --exclude=./web/lessons --exclude='./web/*.gz' \
	    --exclude=__pycache__ --exclude=./venv . | tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b -j$(DEB_JOBS)
	rm -rf $(DEB_SRC)
	lintian --fail-on error --info --display-info $(abspath $(DEB_OUT))/figaro_$(VERSION)_*.changes
	@echo "lintian: no errors; the packages are in $(DEB_OUT)"

clean:
	rm -rf $(B)
	rm -f web/*.gz web/*/*.gz

-include $(shell find $(B) $(T) -name '*.d' 2>/dev/null | sort -u)

# The opponents for the bots' strength (docs/bots.md, "Bots against
# strangers"), FEP engines built on the rules, the host layer's FEP engine and
# the engine loop of cli/fep_stdio.c only (opponent.c: the options and the loop
# they share): textbook ISMCTS; a rule-based expert with no search; and
# Perfect-Information Monte Carlo whose playouts follow the expert's rules
# (expert_policy.c, the knowledge those two share). The release builds for
# measuring, the sanitizer builds for tests/cli/test_opponents.sh; the sources
# go before the objects and libraries, which the linker reads in order.
OPPONENT_SRC := bench/opponents/opponent.c bench/opponents/opponent.h
$(addprefix $(B)/,$(OPPONENTS)): $(B)/%: bench/opponents/%.c $(OPPONENT_SRC) \
        $(B)/cli/fep_stdio.o $(B)/libfigaro-host.a $(B)/libfigaro-ai.a $(B)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) $(LDFLAGS) -o $@ \
	    $(filter %.c,$^) $(filter %.o %.a,$^) -lm -lpthread
$(addprefix $(T)/,$(OPPONENTS)): $(T)/%: bench/opponents/%.c $(OPPONENT_SRC) \
        $(T)/cli/fep_stdio.o $(T)/libfigaro-host.a $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(FIG_CPPFLAGS) $(WARN) $(SAN) -o $@ $(filter %.c,$^) $(filter %.o %.a,$^) -lm -lpthread
$(B)/expert $(B)/pimc $(T)/expert $(T)/pimc: bench/opponents/expert_policy.c \
        bench/opponents/expert_policy.h

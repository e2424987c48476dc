# figaro - GNU Makefile.
#   make           build build/figaro and build/libfigaro.a (release, -O2)
#   make test      build everything under ASan+UBSan and run every test
#   make play      build and start the game
#   make bench     run the benchmarks (release build)
#   make fuzz      run the FGN fuzzer for FUZZ_SECONDS (default 300)
# Missing Debian packages are installed first by scripts/install-deps.sh.

CC       ?= cc
FUZZ_CC  ?= clang
B        := build
T        := build/test

CPPFLAGS := -Iinclude -Isrc -D_POSIX_C_SOURCE=200809L -MMD -MP
WARN     := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
SAN      := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CLI_LIBS := -ljansson -lncursesw -lm -lpthread

CORE_SRC := $(wildcard src/core/*.c)
AI_SRC   := $(wildcard src/ai/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
SUPPORT  := $(wildcard tests/unit/support*.c)

CORE_OBJ     := $(CORE_SRC:src/%.c=$(B)/%.o)
AI_OBJ       := $(AI_SRC:src/%.c=$(B)/%.o)
CLI_OBJ      := $(CLI_SRC:src/%.c=$(B)/%.o)
CORE_OBJ_T   := $(CORE_SRC:src/%.c=$(T)/%.o)
AI_OBJ_T     := $(AI_SRC:src/%.c=$(T)/%.o)
CLI_OBJ_T    := $(CLI_SRC:src/%.c=$(T)/%.o)
SUPPORT_OBJ  := $(SUPPORT:tests/unit/%.c=$(T)/unit/%.o)
UNIT_BIN     := $(UNIT_SRC:tests/unit/%.c=$(T)/%)
DEPS_STAMP   := $(B)/.deps-installed

.PHONY: all test play bench fuzz deps clean
all: $(B)/figaro $(B)/libfigaro.a $(B)/libfigaro-ai.a

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/install-deps.sh
	@sh scripts/install-deps.sh
	@mkdir -p $(B) && touch $@

# ---- release build
$(B)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -c $< -o $@

$(B)/libfigaro.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-ai.a: $(AI_OBJ)
	$(AR) rcs $@ $^

$(B)/figaro: $(CLI_OBJ) $(B)/libfigaro-ai.a $(B)/libfigaro.a
	$(CC) $(CFLAGS) -o $@ $^ $(CLI_LIBS)

# ---- test build: everything under the sanitizers
$(T)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(SAN) -c $< -o $@

$(T)/unit/%.o: tests/unit/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Itests/unit $(WARN) $(SAN) -c $< -o $@

$(T)/libfigaro.a: $(CORE_OBJ_T)
	$(AR) rcs $@ $^

$(T)/libfigaro-ai.a: $(AI_OBJ_T)
	$(AR) rcs $@ $^

$(T)/figaro: $(CLI_OBJ_T) $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ $(CLI_LIBS)

$(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ -lcmocka -lm -lpthread

# ---- fuzzing (clang's libFuzzer)
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
$(T)/fuzz_fgn: tests/fuzz/fuzz_fgn.c $(CORE_SRC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ $^

# The FEP target reaches the engine's static line handler by including its
# source; the rest of the command links in with its main() renamed.
FEP_FUZZ_SRC := $(filter-out src/cli/fep_engine.c src/cli/main.c,$(CLI_SRC)) $(AI_SRC) $(CORE_SRC)
$(T)/fuzz_fep: tests/fuzz/fuzz_fep.c $(FEP_FUZZ_SRC) src/cli/fep_engine.c src/cli/main.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ \
	    tests/fuzz/fuzz_fep.c $(FEP_FUZZ_SRC) -x c src/cli/main.c -Dmain=figaro_main \
	    $(CLI_LIBS)

FUZZ_SECONDS ?= 300
fuzz: $(T)/fuzz_fgn $(T)/fuzz_fep
	@mkdir -p tests/fuzz/corpus-run tests/fuzz/corpus-run-fep
	$(T)/fuzz_fgn -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	    tests/fuzz/corpus-run tests/fuzz/corpus tests/cases
	$(T)/fuzz_fep -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    tests/fuzz/corpus-run-fep tests/fuzz/corpus-fep

test: $(UNIT_BIN) $(T)/figaro $(T)/fuzz_fgn $(T)/fuzz_fep $(B)/libfigaro.a
	@sh tests/run.sh $(T)

bench: $(B)/figaro
	$(B)/figaro bench

# The terminal game is the next piece of work (see README, Status); until it
# lands, say so plainly instead of starting something that is not the game.
play: $(B)/figaro
	@echo "figaro: the terminal game is not built yet; the rules engine is ready."
	@echo "  Try: $(B)/figaro random-game --players 4 --seed 1 | $(B)/figaro replay -"
	@$(B)/figaro random-game --players 4 --seed 1 | $(B)/figaro replay -

clean:
	rm -rf $(B)

-include $(shell find $(B) $(T) -name '*.d' 2>/dev/null | sort -u)

# figaro - GNU Makefile.
#   make           build build/figaro and the libraries (release, -O2):
#                  libfigaro.a (core) <- libfigaro-ai.a <- libfigaro-host.a
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
# -ffp-contract=off: no fused multiply-add, so that search (float UCB) plays the
# same moves for a seed whatever the processor.
WARN     := -std=c11 -ffp-contract=off -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS   ?= -O2 -g
# The processor the release build is for: this machine's when the compiler
# can tell (popcnt and pdep make playouts faster); `make MARCH=` builds a
# binary for any processor of the architecture.
ifeq ($(origin MARCH),undefined)
MARCH    := $(shell $(CC) -march=native -E -x c /dev/null >/dev/null 2>&1 && echo -march=native)
endif
SAN      := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CLI_LIBS := -ljansson -lncursesw -lm -lpthread

CORE_SRC := $(wildcard src/core/*.c)
AI_SRC   := $(wildcard src/ai/*.c)
HOST_SRC := $(wildcard src/host/*.c)
TUI_SRC  := $(wildcard src/tui/*.c)
CLI_SRC  := $(wildcard src/cli/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
SUPPORT  := $(wildcard tests/unit/support*.c)

CORE_OBJ     := $(CORE_SRC:src/%.c=$(B)/%.o)
AI_OBJ       := $(AI_SRC:src/%.c=$(B)/%.o)
HOST_OBJ     := $(HOST_SRC:src/%.c=$(B)/%.o)
CLI_OBJ      := $(CLI_SRC:src/%.c=$(B)/%.o) $(TUI_SRC:src/%.c=$(B)/%.o)
CORE_OBJ_T   := $(CORE_SRC:src/%.c=$(T)/%.o)
AI_OBJ_T     := $(AI_SRC:src/%.c=$(T)/%.o)
HOST_OBJ_T   := $(HOST_SRC:src/%.c=$(T)/%.o)
CLI_OBJ_T    := $(CLI_SRC:src/%.c=$(T)/%.o) $(TUI_SRC:src/%.c=$(T)/%.o)
SUPPORT_OBJ  := $(SUPPORT:tests/unit/%.c=$(T)/unit/%.o)
UNIT_BIN     := $(UNIT_SRC:tests/unit/%.c=$(T)/%)
DEPS_STAMP   := $(B)/.deps-installed

.PHONY: all test play bench fuzz deps clean
all: $(B)/figaro $(B)/libfigaro.a $(B)/libfigaro-ai.a $(B)/libfigaro-host.a

deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/install-deps.sh
	@sh scripts/install-deps.sh
	@mkdir -p $(B) && touch $@

# ---- release build
$(B)/%.o: src/%.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) $(MARCH) -c $< -o $@

$(B)/libfigaro.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-ai.a: $(AI_OBJ)
	$(AR) rcs $@ $^

$(B)/libfigaro-host.a: $(HOST_OBJ)
	$(AR) rcs $@ $^

$(B)/figaro: $(CLI_OBJ) $(B)/libfigaro-host.a $(B)/libfigaro-ai.a $(B)/libfigaro.a
	$(CC) $(CFLAGS) $(MARCH) -o $@ $^ $(CLI_LIBS)

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

$(T)/libfigaro-host.a: $(HOST_OBJ_T)
	$(AR) rcs $@ $^

$(T)/figaro: $(CLI_OBJ_T) $(T)/libfigaro-host.a $(T)/libfigaro-ai.a $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ $(CLI_LIBS)

$(T)/test_%: $(T)/unit/test_%.o $(SUPPORT_OBJ) $(T)/libfigaro-host.a $(T)/libfigaro-ai.a \
              $(T)/libfigaro.a
	$(CC) $(SAN) -o $@ $^ -lcmocka -lm -lpthread

# bits.h takes this processor's instructions in the release build and byte
# tables in the (portable) test build: test_bits runs both ways.
$(T)/test_bits_native: tests/unit/test_bits.c src/core/bits.h | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) -Iinclude -Isrc $(WARN) $(SAN) $(MARCH) -o $@ $< -lcmocka

# ---- fuzzing (clang's libFuzzer)
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
$(T)/fuzz_fgn: tests/fuzz/fuzz_fgn.c $(CORE_SRC) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ $^

# The .mo reader, opened from memory (fig_catalog_from_buffer).
$(T)/fuzz_mo: tests/fuzz/fuzz_mo.c src/host/lang.c src/core/error.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ $^

# The FEP target reaches the engine's static line handler by including its
# source; the rest of the command links in with its main() renamed.
FEP_FUZZ_SRC := $(filter-out src/cli/fep_engine.c src/cli/main.c,$(CLI_SRC)) $(TUI_SRC) \
                $(HOST_SRC) $(AI_SRC) $(CORE_SRC)
$(T)/fuzz_fep: tests/fuzz/fuzz_fep.c $(FEP_FUZZ_SRC) src/cli/fep_engine.c src/cli/main.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -Iinclude -Isrc -std=c11 -D_POSIX_C_SOURCE=200809L $(FUZZ_FLAGS) -o $@ \
	    tests/fuzz/fuzz_fep.c $(FEP_FUZZ_SRC) -x c src/cli/main.c -Dmain=figaro_main \
	    $(CLI_LIBS)

FUZZ_SECONDS ?= 300
fuzz: $(T)/fuzz_fgn $(T)/fuzz_fep $(T)/fuzz_mo
	@mkdir -p tests/fuzz/corpus-run tests/fuzz/corpus-run-fep tests/fuzz/corpus-run-mo
	$(T)/fuzz_fgn -max_total_time=$(FUZZ_SECONDS) -max_len=16384 \
	    tests/fuzz/corpus-run tests/fuzz/corpus tests/cases
	$(T)/fuzz_fep -max_total_time=$(FUZZ_SECONDS) -max_len=8192 \
	    tests/fuzz/corpus-run-fep tests/fuzz/corpus-fep
	$(T)/fuzz_mo -max_total_time=$(FUZZ_SECONDS) -max_len=65536 \
	    tests/fuzz/corpus-run-mo tests/fuzz/corpus-mo

test: $(UNIT_BIN) $(T)/test_bits_native $(T)/figaro $(T)/fuzz_fgn $(T)/fuzz_fep $(T)/fuzz_mo \
      $(B)/libfigaro.a
	@sh tests/run.sh $(T)

bench: $(B)/figaro
	$(B)/figaro bench

play: $(B)/figaro
	$(B)/figaro play

# ---- translations (GNU gettext; docs/translations.md) ----------------------
# po/figaro.pot is the template, generated from the sources and committed;
# po/LANG.po are the catalogues, compiled into $(B)/locale/LANG/LC_MESSAGES/
# figaro.mo (and $(T)/locale/... for the test build), where the program finds
# them next to itself. `make pot` regenerates the template and merges it into
# every catalogue; the build only compiles, it never rewrites po/.
LANGS      := fr nl it
POT_SRC    := $(sort $(wildcard src/cli/*.c src/tui/*.c src/host/*.c src/core/*.c src/ai/*.c))
XGETTEXT   := xgettext --from-code=UTF-8 --language=C --keyword=_ --keyword=N_ \
              --keyword=fig_tr_text:2 --keyword=fig_tr_plural:2,3 \
              --sort-output --add-location=file --add-comments=TRANSLATORS: \
              --package-name=figaro
MO         := $(LANGS:%=$(B)/locale/%/LC_MESSAGES/figaro.mo)
MO_T       := $(LANGS:%=$(T)/locale/%/LC_MESSAGES/figaro.mo)

.PHONY: pot pot-to
all: $(MO)
test: $(MO_T)
$(B)/figaro: | $(MO)
$(T)/figaro: | $(MO_T)
# Unit tests that read the real catalogues (host/lang.h, narration in French
# and Dutch) find them next to themselves, in $(T)/locale.
$(T)/test_lang $(T)/test_narrate: | $(MO_T)

# msgfmt --check fails the build on a broken catalogue (format strings that do
# not match their msgid, bad headers); --statistics says what is left to do.
# (Two rules: one pattern rule with two targets would be one grouped recipe.)
$(B)/locale/%/LC_MESSAGES/figaro.mo: po/%.po | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	msgfmt --check --statistics -o $@ $<
$(T)/locale/%/LC_MESSAGES/figaro.mo: po/%.po | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	msgfmt --check --statistics -o $@ $<

# `make pot-to POT_OUT=FILE` writes a fresh template to FILE (tests compare it
# with po/figaro.pot, POT-Creation-Date aside).
pot-to:
	@test -n "$(POT_OUT)" || { echo "usage: make pot-to POT_OUT=FILE" >&2; exit 2; }
	@$(XGETTEXT) -o $(POT_OUT) $(POT_SRC)

# The template is replaced only when more than its date changed, so it stays
# stable in git; then every catalogue takes the new and changed messages.
pot: | $(DEPS_STAMP)
	@mkdir -p $(B)
	$(XGETTEXT) -o $(B)/figaro.pot $(POT_SRC)
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

clean:
	rm -rf $(B)

-include $(shell find $(B) $(T) -name '*.d' 2>/dev/null | sort -u)

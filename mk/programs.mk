# SPDX-License-Identifier: MIT
# mk/programs.mk - the programs on the libraries: the command figaro, the
# examples and the opponents (release and sanitizer builds alike, from one
# template), the benchmarks' programs, and the targets that run them (play,
# serve, bench, leaf-weights).

# $(call link,FLAVOUR): the link of a program in a flavour, its system
# libraries written after it. The sources of $^ (compiled with the flavour's
# flags), then its objects, then its libraries, the order the linker reads
# them in (an object named apart, the service tests' harness, calls the
# libraries too); the headers that -MMD lists as prerequisites are not inputs.
link = $($(1)_CC) $(FIG_CPPFLAGS) $($(1)_CFLAGS) $($(1)_LDFLAGS) -o $@ \
       $(filter %.c,$^) $(filter %.o,$^) $(filter %.a,$^)

# The FEP engines of bench/opponents/, for the bots' strength (docs/bots.md,
# "Bots against strangers"), built on the rules, the host layer's FEP engine
# and the engine loop of cli/fep_stdio.c only (opponent.c: the options and the
# loop they share): textbook ISMCTS; a rule-based expert with no search; and
# Perfect-Information Monte Carlo whose playouts follow the expert's rules
# (expert_policy.c, the knowledge those two share). The release builds for
# measuring, the sanitizer builds for tests/cli/test_opponents.sh.
OPPONENTS    := textbook_ismcts expert pimc
OPPONENT_SRC := bench/opponents/opponent.c bench/opponents/opponent.h

# $(call programs,FLAVOUR): what both the release and the sanitizer builds
# hold: the command, the examples (programs on the libraries' API,
# examples/*.c; tests/cli/test_many_matches.sh runs the sanitizer one) and the
# opponents.
define programs
$$($(1)_DIR)/figaro: $$(call objs,$(1),$$(CLI_SRC) $$(TUI_SRC)) $$(call libs,$(1),net host ai core)
	$$(call link,$(1)) $$(SERVE_LIBS) $$(CLI_LIBS)
$$($(1)_DIR)/many_matches: examples/many_matches.c $$(call libs,$(1),host ai core)
	$$(call link,$(1)) -lm -lpthread
$$(addprefix $$($(1)_DIR)/,$$(OPPONENTS)): $$($(1)_DIR)/%: bench/opponents/%.c $$(OPPONENT_SRC) \
        $$($(1)_DIR)/cli/fep_stdio.o $$(call libs,$(1),host ai core)
	$$(call link,$(1)) -lm -lpthread
$$($(1)_DIR)/expert $$($(1)_DIR)/pimc: bench/opponents/expert_policy.c bench/opponents/expert_policy.h
endef
$(foreach f,rel san,$(eval $(call programs,$(f))))

.PHONY: examples play bench leaf-weights
## examples: the example programs on the libraries' API (build/many_matches)
examples: $(B)/many_matches
ALL += $(B)/figaro examples

## play: build and start the game
play: $(B)/figaro
	$(B)/figaro play

## serve: build and start the table server (SERVE_ARGS: its options, docs/server.md)
# `make serve SERVE_ARGS='--listen 0.0.0.0:8080'`.
SERVE += $(B)/figaro
serve:
	$(B)/figaro serve $(SERVE_ARGS)

## bench: run the benchmarks (release build)
bench: $(B)/figaro
	$(B)/figaro bench

# The learned leaf of the search bot (src/ai/leaf.h): its trainer, and the
# weights written again from the trainer's default seed (docs/bots.md).
$(B)/train_leaf: bench/train_leaf.c $(call libs,rel,ai core)
	$(call link,rel) -lm -lpthread
## leaf-weights: write src/ai/leaf_weights.c again from the trainer's default seed
leaf-weights: $(B)/train_leaf
	$(B)/train_leaf > src/ai/leaf_weights.c.new && mv src/ai/leaf_weights.c.new src/ai/leaf_weights.c

# What a hint costs (docs/bots.md, Hints): the hint's search timed at every
# move of a seat.
$(B)/hint_time: bench/hint_time.c $(call libs,rel,ai core)
	$(call link,rel) -lm -lpthread

# What the lobby costs the loop, by its size (docs/server.md, Lobby).
$(B)/lobby_cost: bench/lobby_cost.c $(call libs,rel,net host ai core)
	$(call link,rel) $(NET_LIBS) -lm -lpthread

# What finding a person's connections costs the loop, by their number
# (docs/scaling.md).
$(B)/person_cost: bench/person_cost.c $(call libs,rel,net host ai core)
	$(call link,rel) $(NET_LIBS) -lm -lpthread

# The people of bench/server_bench.py in C (--load-client): a load that costs
# its machine less than the server it measures; on none of the libraries.
$(B)/server_load: bench/server_load.c
	$(call link,rel) -ljansson

# The benchmarks' programs are built by `make test` too (not run: their
# figures are the README's and the documents'), so that a change of the
# libraries' API that breaks one is seen at once.
BENCH_BIN := $(B)/hint_time $(B)/lobby_cost $(B)/person_cost $(B)/server_load
TEST += $(BENCH_BIN)

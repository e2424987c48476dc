# SPDX-License-Identifier: MIT
# figaro - GNU Makefile: the variables every part of the build needs, the
# default goal, and the parts themselves, in mk/ (each opens with what it
# holds). `make help` lists the targets, one line each, from the `## target:`
# lines of this file and of mk/*.mk.
#   make           build/figaro and the libraries (release, -O2):
#                  libfigaro.a (core) <- libfigaro-ai.a <- libfigaro-host.a
#                  <- libfigaro-net.a (the table server, below the network)
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
# The table server's sources, in src/net and its subfolders.
NET_SRC  := $(sort $(wildcard src/net/*.c src/net/*/*.c))
# The table server's libraries: SQLite and libpq (storage: net/store/db_sqlite.c,
# net/store/db_pg.c), jansson (the protocol's JSON), libcrypto (SHA-256 of the
# seats' tokens). libpq's flags come from pkg-config, asked when a recipe
# runs (`=`): on a fresh machine scripts/install-deps.sh installs it first.
PQ_CFLAGS = $(shell pkg-config --cflags libpq)
PQ_LIBS   = $(shell pkg-config --libs libpq)
NET_LIBS   = -lsqlite3 $(PQ_LIBS) -ljansson -lcrypto
# `figaro serve` puts it on the network with libwebsockets on a libuv loop
# (net/wire/wire.c, its loop net/wire/wire_loop.c; lws loads its libuv plugin,
# libwebsockets-evlib-uv, at run time).
SERVE_LIBS = -lwebsockets -luv $(NET_LIBS)

# The files of src/net that a rule names by path (the rest are found by the
# wildcard above), kept here together so that a file that moves is one line:
#   libpq's header, for its back end alone (mk/libs.mk);
NET_PG_OBJ    := net/store/db_pg.o
#   the HTTP paths' module, fuzzed alone (mk/fuzz.mk);
NET_HTTP_PATH := net/service/http_path.o
#   the bot levels' names the page shows (LEVEL_SRC, mk/web.mk).
NET_NAMES_SRC := src/net/base/names.c
# (The template's sources, POT_SRC in mk/i18n.mk, take NET_SRC whole.)

VERSION  := $(shell sed -n 's/^\#define FIG_VERSION "\(.*\)"/\1/p' include/figaro/figaro.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))

DEPS_STAMP   := $(B)/.deps-installed
INSTALL_DEPS ?= yes

# What `make` (all), `make test` and `make serve` need: each part adds its own
# (recursive variables: read once every part is in, by the rules at the end).
ALL   =
TEST  =
SERVE =

.DEFAULT_GOAL := all
.PHONY: all test serve deps clean help FORCE
FORCE:
# $(call write_if_changed,TEXT): a stamp's recipe (its rule with FORCE): TEXT
# into $@ when $@ holds another, so that what depends on the stamp is made
# again then only.
write_if_changed = @mkdir -p $(dir $@); echo '$(1)' | cmp -s - $@ || echo '$(1)' > $@

# The parts, in this order: a part may use the variables of those before it
# (libs: objects and archives in every flavour; programs; tests; fuzz;
# shared libraries; translations; the browser client's files; install; deb).
MK_PARTS := mk/libs.mk mk/programs.mk mk/tests.mk mk/fuzz.mk mk/shared.mk mk/i18n.mk \
            mk/web.mk mk/install.mk mk/deb.mk
include $(MK_PARTS)

## all: build/figaro, the libraries, the translations, the page's files (the default)
all: $(ALL)
test: $(TEST)
serve: $(SERVE)

## deps: install the Debian packages the build needs (scripts/install-deps.sh)
deps: $(DEPS_STAMP)
$(DEPS_STAMP): scripts/install-deps.sh
	@[ "$(INSTALL_DEPS)" = no ] || sh scripts/install-deps.sh
	@mkdir -p $(B) && touch $@

## clean: remove build/ and the page's gzip copies
clean:
	rm -rf $(B)
	rm -f web/*.gz web/*/*.gz

## help: this list
help:
	@sed -n 's/^## \([^:]*\): */\1\t/p' Makefile $(MK_PARTS) | \
	    awk -F '\t' '{ printf "  make %-13s %s\n", $$1, $$2 }'

-include $(shell find $(B) $(T) -name '*.d' 2>/dev/null | sort -u)

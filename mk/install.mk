# SPDX-License-Identifier: MIT
# mk/install.mk - install and uninstall (GNU conventions; docs/python.md,
# docs/development.md), both from one list of what is installed where; the
# pkg-config files, the man pages and the Python package's paths, written
# with this installation's directories.
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

# Where an installed command finds the catalogues when not next to itself;
# the stamp holds the DATADIR the command was built with, so a new one given
# to `make install` rebuilds what depends on it.
$(B)/cli/i18n.o $(T)/cli/i18n.o: FIG_CPPFLAGS += -DLOCALEDIR='"$(DATADIR)/locale"'
# Where an installed `figaro serve` finds the browser client when not beside it.
$(B)/cli/serve.o $(T)/cli/serve.o: FIG_CPPFLAGS += -DFIG_WEBDIR='"$(DATADIR)/figaro/web"'
# ... and `figaro learn` its lessons.
$(B)/cli/learn.o $(T)/cli/learn.o: FIG_CPPFLAGS += -DFIG_LESSONDIR='"$(DATADIR)/figaro/lessons"'
$(B)/cli/i18n.o $(B)/cli/serve.o $(B)/cli/learn.o: $(B)/.datadir
$(B)/.datadir: FORCE
	$(call write_if_changed,$(DATADIR))

HEADERS      := $(wildcard include/figaro/*.h)
MANPAGES     := man/figaro.1 man/figaro-fgn.5 man/figaro-fep.7
# The documents the man pages point to (DOCDIR).
DOCS         := docs/fgn.md docs/fep.md docs/engine.md docs/python.md docs/protocol.md \
                docs/server.md
PYFILES      := $(wildcard python/figaro/*.py)

# The pkg-config files, with this installation's directories, under prefix
# when they are (pkg-config --define-prefix, and PKG_CONFIG_SYSROOT_DIR, can
# then move them).
PC_DIRS = 'prefix=$(PREFIX)' 'libdir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))' \
          'includedir=$(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))' ''
PCFILES := $(B)/figaro.pc $(B)/figaro-ai.pc $(B)/figaro-host.pc
$(B)/figaro.pc: include/figaro/figaro.h mk/install.mk
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro' \
	    'Description: rules engine of Reiner Knizia'"'"'s card game Figaro (libc only)' \
	    'Version: $(VERSION)' \
	    'Libs: -L$${libdir} -lfigaro' 'Cflags: -I$${includedir}' > $@
$(B)/figaro-ai.pc: include/figaro/figaro.h mk/install.mk
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro-ai' \
	    'Description: the bots of figaro: random, greedy, ISMCTS' 'Version: $(VERSION)' \
	    'Requires: figaro = $(VERSION)' 'Libs: -L$${libdir} -lfigaro-ai' \
	    'Libs.private: -lpthread -lm' 'Cflags: -I$${includedir}' > $@
# A static library alone: its own needs are in Libs.
$(B)/figaro-host.pc: include/figaro/figaro.h mk/install.mk
	@mkdir -p $(B)
	printf '%s\n' $(PC_DIRS) 'Name: figaro-host' \
	    'Description: the match runner of figaro (figaro/match.h; static library)' \
	    'Version: $(VERSION)' 'Requires: figaro-ai = $(VERSION)' \
	    'Libs: -L$${libdir} -lfigaro-host -lpthread -lm' 'Cflags: -I$${includedir}' > $@

# The man pages, with the documents' directory written in; the Python
# package's paths, with the library directory (none when PY_LIBDIR is empty).
MAN_MADE     := $(MANPAGES:man/%=$(B)/man/%)
PY_PATHS     := $(B)/python/_paths.py
$(MAN_MADE): $(B)/man/%: man/%
	@mkdir -p $(dir $@)
	sed 's|@DOCDIR@|$(DOCDIR)|g' $< > $@
$(PY_PATHS): python/figaro/_paths.py
	@mkdir -p $(dir $@)
	sed '$(if $(PY_LIBDIR),s|^LIBDIR = None$$|LIBDIR = "$(PY_LIBDIR)"|)' $< > $@
# (Made again at every install: the directories come from the command line.)
.PHONY: $(PCFILES) $(MAN_MADE) $(PY_PATHS)

# man 3: a page per public header, and one per function that points to it
# (scripts/man3.py reads the headers' comments).
$(B)/man3/.stamp: $(HEADERS) scripts/man3.py
	@rm -rf $(B)/man3 && mkdir -p $(B)/man3
	/usr/bin/python3 scripts/man3.py --version $(VERSION) --out $(B)/man3 $(HEADERS)
	@touch $@
ALL += $(B)/man3/.stamp

# What is installed: sets of files, each a name of INSTALL_SETS with
#   NAME_FILES  the files (a shell pattern for those the build names:
#               $(B)/man3/*.3)
#   NAME_DIR    the folder they go to, under DESTDIR
#   NAME_HOW    how they are copied there (install -m 644 unless said)
# install copies every set, uninstall removes each set's files by name.
# The page's files keep their times (install -p): a gzip copy stays not older
# than its file, which `figaro serve` checks before it sends one. Symbolic
# links are copied as links (cp -P): the shared libraries' and man 3's.
INSTALL_SETS := bin so so_links static headers pc $(LANGS:%=mo_%) web web_i18n web_rules \
                web_lessons lessons man1 man5 man7 man3 docs python
bin_FILES       = $(B)/figaro
bin_DIR         = $(BINDIR)
bin_HOW         = $(INSTALL) -m 755
so_FILES        = $(SO_NAMES:%=$(B)/%.so.$(VERSION))
so_DIR          = $(LIBDIR)
so_HOW          = $(INSTALL) -m 755
so_links_FILES  = $(SO_NAMES:%=$(B)/%.so.$(SOMAJOR)) $(SO_NAMES:%=$(B)/%.so)
so_links_DIR    = $(LIBDIR)
so_links_HOW    = cp -P
static_FILES    = $(call libs,rel,core ai host)
static_DIR      = $(LIBDIR)
headers_FILES   = $(HEADERS)
headers_DIR     = $(INCLUDEDIR)/figaro
pc_FILES        = $(PCFILES)
pc_DIR          = $(PKGCONFIGDIR)
$(foreach l,$(LANGS),$(eval mo_$(l)_FILES = $(B)/locale/$(l)/LC_MESSAGES/figaro.mo))
$(foreach l,$(LANGS),$(eval mo_$(l)_DIR = $$(DATADIR)/locale/$(l)/LC_MESSAGES))
web_FILES       = $(WEBFILES) $(call gz,$(WEBFILES))
web_DIR         = $(DATADIR)/figaro/web
web_HOW         = $(INSTALL) -p -m 644
web_i18n_FILES  = $(WEBI18N) $(call gz,$(WEBI18N))
web_i18n_DIR    = $(DATADIR)/figaro/web/i18n
web_i18n_HOW    = $(web_HOW)
web_rules_FILES = $(WEBRULES) $(call gz,$(WEBRULES))
web_rules_DIR   = $(DATADIR)/figaro/web/rules
web_rules_HOW   = $(web_HOW)
web_lessons_FILES = $(WEBLESSONS) $(call gz,$(WEBLESSONS))
web_lessons_DIR = $(DATADIR)/figaro/web/lessons
web_lessons_HOW = $(web_HOW)
lessons_FILES   = $(LESSONFILES)
lessons_DIR     = $(DATADIR)/figaro/lessons
$(foreach s,1 5 7,$(eval man$(s)_FILES = $$(filter %.$(s),$$(MAN_MADE))))
$(foreach s,1 5 7,$(eval man$(s)_DIR = $$(MANDIR)/man$(s)))
man3_FILES      = $(B)/man3/*.3
man3_DIR        = $(MANDIR)/man3
man3_HOW        = cp -P
docs_FILES      = $(DOCS)
docs_DIR        = $(DOCDIR)
python_FILES    = $(filter-out python/figaro/_paths.py,$(PYFILES)) $(PY_PATHS)
python_DIR      = $(PYTHONDIR)/figaro
# The folders that are figaro's alone, each before its parent: uninstall
# removes them once empty (the Python package's also of the byte code that
# python3 left there).
OWN_DIRS = $(INCLUDEDIR)/figaro $(DATADIR)/figaro/web/i18n $(DATADIR)/figaro/web/rules \
           $(DATADIR)/figaro/web/lessons $(DATADIR)/figaro/web $(DATADIR)/figaro/lessons \
           $(DATADIR)/figaro $(DOCDIR) $(PYTHONDIR)/figaro

# $(call install_set,SET) and $(call uninstall_set,SET): a set's recipe lines.
define install_set
$(INSTALL) -d $(DESTDIR)$($(1)_DIR)
$(or $($(1)_HOW),$(INSTALL) -m 644) $($(1)_FILES) $(DESTDIR)$($(1)_DIR)/

endef
define uninstall_set
for f in $($(1)_FILES); do rm -f $(DESTDIR)$($(1)_DIR)/$${f##*/}; done

endef

.PHONY: install uninstall
## install: install under PREFIX (/usr/local; DESTDIR, BINDIR, LIBDIR, ... each alone)
install: all $(PCFILES) $(MAN_MADE) $(PY_PATHS)
	$(foreach s,$(INSTALL_SETS),$(call install_set,$(s)))
	@if [ -z "$(DESTDIR)" ] && command -v ldconfig >/dev/null && [ "$$(id -u)" = 0 ]; then \
	    ldconfig; fi

## uninstall: remove what install put (the same variables)
uninstall:
	$(foreach s,$(INSTALL_SETS),$(call uninstall_set,$(s)))
	rm -rf $(DESTDIR)$(PYTHONDIR)/figaro/__pycache__
	-rmdir $(addprefix $(DESTDIR),$(OWN_DIRS))

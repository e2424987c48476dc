# SPDX-License-Identifier: MIT
# mk/web.mk - the browser client's files made by the build (not in git): its
# translations (web/i18n), the rules (web/rules) and the lessons
# (web/lessons) it shows, and the gzip copies of its text files; and the
# lists of its files and of the lessons, which mk/install.mk installs.

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
# $(call gz,FILES): the gzip copies of those of FILES that are text.
gz            = $(addsuffix .gz,$(filter %.html %.js %.css %.svg %.webmanifest %.json %.txt,$(1)))
ALL   += $(WEBI18N) $(WEBRULES) $(WEBLESSONS) $(WEBGZ)
TEST  += $(WEBI18N) $(WEBRULES) $(WEBLESSONS) $(WEBGZ)
SERVE += $(WEBI18N) $(WEBRULES) $(WEBLESSONS) $(WEBGZ)

# The browser client's translations: only the messages of web/*.js and the bot
# levels' names (N_LEVEL in the C sources that name them: the server sends the
# levels, the page shows their names), from the same catalogues (po2json.py).
LEVEL_SRC    := src/ai/bot.c $(NET_NAMES_SRC)
XGETTEXT_LVL := $(XGETTEXT_COMMON) --language=C --keyword --keyword=N_LEVEL
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
web/rules/en.json: $(RULES_BY)
	@mkdir -p web/rules
	$(RULES_BY) rules --json --lang en > $@.tmp && mv $@.tmp $@
$(LANGS:%=web/rules/%.json): web/rules/%.json: $(RULES_BY) $(dir $(RULES_BY))locale/%/LC_MESSAGES/figaro.mo
	@mkdir -p web/rules
	$(RULES_BY) rules --json --lang $* > $@.tmp && mv $@.tmp $@

# The page's lessons (WEBLESSONS): the same program, from the lessons' files.
web/lessons/en.json: $(RULES_BY) $(LESSONFILES)
	@mkdir -p web/lessons
	$(RULES_BY) learn --played --lang en --lessons lessons > $@.tmp && mv $@.tmp $@
$(LANGS:%=web/lessons/%.json): web/lessons/%.json: $(RULES_BY) $(LESSONFILES) $(dir $(RULES_BY))locale/%/LC_MESSAGES/figaro.mo
	@mkdir -p web/lessons
	$(RULES_BY) learn --played --lang $* --lessons lessons > $@.tmp && mv $@.tmp $@

# The page's text files compressed beside themselves (F.gz, gzip -9 -n: no
# name, no time, the same bytes at every build), which `figaro serve` sends
# in F's place to a browser that takes gzip, while F.gz is not older than F
# (net/wire/webfiles.h): what a phone receives is these. Not in git.
WEBGZ = $(call gz,$(WEBFILES) $(WEBI18N) $(WEBRULES) $(WEBLESSONS))
.PHONY: webgz
# (web/**/F.gz, which `figaro serve` sends; all, serve, test and install
# make them too; clean removes them.)
## webgz: the page's text files gzip-compressed beside themselves
webgz: $(WEBGZ)
web/%.gz: web/%
	gzip -9 -n -c $< > $@.tmp && mv $@.tmp $@

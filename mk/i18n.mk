# SPDX-License-Identifier: MIT
# mk/i18n.mk - the translations (GNU gettext; docs/translations.md).
# po/figaro.pot is the template, generated from the sources and committed;
# po/LANG.po are the catalogues, compiled into $(B)/locale/LANG/LC_MESSAGES/
# figaro.mo (and $(T)/locale/... for the test build), where the program finds
# them next to itself. `make pot` regenerates the template and merges it into
# every catalogue; the build only compiles, it never rewrites po/.
# The languages but English are those of po/*.po; test_lang checks that they
# are those of src/host/lang.c's table, which the server and its page follow.
LANGS      := $(sort $(patsubst po/%.po,%,$(wildcard po/*.po)))
POT_SRC    := $(sort $(wildcard src/cli/*.c src/tui/*.c src/host/*.c src/core/*.c src/ai/*.c) \
                     $(NET_SRC))
# The lessons' texts: the steps file writes them _("..."), which xgettext's C
# parser reads as it is (docs/lessons.md).
LESSON_POT := lessons/lessons.steps
# The options every xgettext run here shares (the C sources, web/*.js, the page's levels).
XGETTEXT_COMMON := xgettext --from-code=UTF-8 --sort-output --add-location=file \
                   --add-comments=TRANSLATORS: --package-name=figaro
XGETTEXT   := $(XGETTEXT_COMMON) --language=C --keyword=_ --keyword=N_ --keyword=N_LEVEL \
              --keyword=fig_tr_text:2 --keyword=fig_tr_plural:2,3
# The browser client's messages (web/*.js): _("...") and ngettext("...", "...", n),
# added to the same template with xgettext's JavaScript parser.
WEB_JS       := $(sort $(wildcard web/*.js))
XGETTEXT_JS  := $(XGETTEXT_COMMON) --language=JavaScript --keyword=_ --keyword=ngettext:1,2

MO         := $(LANGS:%=$(B)/locale/%/LC_MESSAGES/figaro.mo)
MO_T       := $(LANGS:%=$(T)/locale/%/LC_MESSAGES/figaro.mo)
ALL  += $(MO)
TEST += $(MO_T)
$(B)/figaro: | $(MO)
$(T)/figaro: | $(MO_T)
# Unit tests that read the real catalogues (host/catalog.h, narration in French
# and Dutch) find them next to themselves, in $(T)/locale.
$(T)/test_lang $(T)/test_narrate $(SERVICE_TESTS) $(T)/test_lesson: | $(MO_T)

# msgfmt --check fails the build on a broken catalogue (format strings that do
# not match their msgid, bad headers); --statistics says what is left to do.
# (A rule for each build: one pattern rule with two targets would be one
# grouped recipe.)
define catalogues
$(1)/locale/%/LC_MESSAGES/figaro.mo: po/%.po | $$(DEPS_STAMP)
	@mkdir -p $$(dir $$@)
	msgfmt --check --statistics -o $$@ $$<
endef
$(foreach d,$(B) $(T),$(eval $(call catalogues,$(d))))

.PHONY: pot pot-to
# `make pot-to POT_OUT=FILE` writes a fresh template to FILE (tests compare it
# with po/figaro.pot, POT-Creation-Date aside).
## pot-to: write a fresh template to POT_OUT=FILE
pot-to:
	@test -n "$(POT_OUT)" || { echo "usage: make pot-to POT_OUT=FILE" >&2; exit 2; }
	@$(XGETTEXT) -o $(POT_OUT) $(POT_SRC) $(LESSON_POT)
	@$(XGETTEXT_JS) --join-existing -o $(POT_OUT) $(WEB_JS)

# The template is replaced only when more than its date changed, so it stays
# stable in git; then every catalogue takes the new and changed messages.
## pot: regenerate po/figaro.pot and merge it into every po/LANG.po
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

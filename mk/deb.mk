# SPDX-License-Identifier: MIT
# mk/deb.mk - the Debian packages (debian/; docs/development.md).
# `make deb` copies the sources (no build/, no git) to DEB_OUT/figaro-VERSION,
# builds the binary packages there with dpkg-buildpackage (-us -uc -b, DEB_JOBS
# jobs), leaves the .deb files in DEB_OUT and runs lintian on them (errors
# fail; debian/*.lintian-overrides say why what is left stays).
# tests/cli/test_deb.sh builds them into a folder of its own and runs them.
DEB_OUT  ?= $(B)/deb
DEB_JOBS ?= 2
DEB_SRC   = $(abspath $(DEB_OUT))/figaro-$(VERSION)
.PHONY: deb
## deb: build the Debian packages into DEB_OUT (build/deb), checked by lintian
deb: | $(DEPS_STAMP)
	rm -rf $(DEB_SRC) && mkdir -p $(DEB_SRC)
	tar -cf - --exclude=./build --exclude=./.git --exclude=./tests/web/node_modules \
	    --exclude=./web/i18n --exclude=./web/rules --exclude=./web/lessons --exclude='./web/*.gz' \
	    --exclude=__pycache__ --exclude=./venv . | tar -xf - -C $(DEB_SRC)
	cd $(DEB_SRC) && dpkg-buildpackage -us -uc -b -j$(DEB_JOBS)
	rm -rf $(DEB_SRC)
	lintian --fail-on error --info --display-info $(abspath $(DEB_OUT))/figaro_$(VERSION)_*.changes
	@echo "lintian: no errors; the packages are in $(DEB_OUT)"

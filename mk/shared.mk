# SPDX-License-Identifier: MIT
# mk/shared.mk - the shared libraries (docs/python.md).
# libfigaro.so is the core alone (libc only); libfigaro-ai.so holds the bots
# (pthreads, libm) and needs libfigaro.so. Both are built from their own
# position-independent objects in $(B)/pic (the pic flavour, mk/libs.mk),
# export only the fig_ names (src/exports.map), and carry the soname
# lib...so.MAJOR. The Python package (python/figaro) loads them from $(B) in
# the source tree; `make test` builds them because the Python tests use these
# plain -O2 libraries (a sanitized library cannot be loaded into an
# unsanitized python3 without LD_PRELOAD). `pip install ./python` builds them
# with this target too, into a scratch folder (python/figaro_build.py: make
# B=DIR INSTALL_DEPS=no WERROR= shared).
SO_LDFLAGS   := -shared -Wl,--version-script=src/exports.map -Wl,--no-undefined -Wl,-z,relro \
                -Wl,-z,now
SO_NAMES     := libfigaro libfigaro-ai
SHARED       := $(foreach l,$(SO_NAMES),$(B)/$(l).so.$(VERSION) $(B)/$(l).so.$(SOMAJOR) $(B)/$(l).so)
# The link of $(B)/NAME.so.VERSION, with its soname NAME.so.MAJOR.
SO_LINK       = $(CC) $(CFLAGS) $(MARCH) $(LDFLAGS) $(SO_LDFLAGS) \
                -Wl,-soname,$(@F:.so.$(VERSION)=.so.$(SOMAJOR)) -o $@

.PHONY: shared
## shared: the shared libraries libfigaro.so and libfigaro-ai.so (build/)
shared: $(SHARED)
ALL += $(SHARED)
TEST += $(SHARED)

$(B)/libfigaro.so.$(VERSION): $(call objs,pic,$(CORE_SRC)) src/exports.map
	$(SO_LINK) $(filter %.o,$^)

# Linked against the core's shared library by path: its soname becomes the
# dependency (DT_NEEDED libfigaro.so.MAJOR).
$(B)/libfigaro-ai.so.$(VERSION): $(call objs,pic,$(AI_SRC)) $(B)/libfigaro.so.$(VERSION) \
        src/exports.map
	$(SO_LINK) $(filter %.o %.so.$(VERSION),$^) -lpthread -lm

$(SO_NAMES:%=$(B)/%.so.$(SOMAJOR)): $(B)/%.so.$(SOMAJOR): $(B)/%.so.$(VERSION)
	ln -sf $(notdir $<) $@
$(SO_NAMES:%=$(B)/%.so): $(B)/%.so: $(B)/%.so.$(SOMAJOR)
	ln -sf $(notdir $<) $@

# A module compiled against the other number model's include directory
# (CMOD_OTHER_INC, given by tests/cmod/run): require must refuse it.
ifeq ($(CMOD_OTHER_INC),)
$(error tests/cmod-other needs CMOD_OTHER_INC, the other model's include dir)
endif
MODULE := othernum
MODULE_SRCS := othernum.c
MODULE_CFLAGS := -I$(CMOD_OTHER_INC)

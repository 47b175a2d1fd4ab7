/* Helpers of the acoustic tests that check bad input (tests/test_acoustic_survey.c, tests/test_acoustic_inputs.c,
   tests/test_acoustic_host.c). */
#ifndef SBPMG_TEST_ACOUSTIC_COMMON_H
#define SBPMG_TEST_ACOUSTIC_COMMON_H

#include "harness.h"

/* An error of any code whose message holds substr (garbage may fail in more than one way, never silently). */
#define EXPECT_ANY_ERROR(call, substr)                                                                                                         \
  do {                                                                                                                                         \
    PetscErrorCode e_;                                                                                                                         \
    const char    *t_ = NULL;                                                                                                                  \
    char          *m_ = NULL;                                                                                                                  \
    PCALL(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));                                                                               \
    e_ = (call);                                                                                                                               \
    PCALL(PetscPopErrorHandler());                                                                                                             \
    if (!e_) fail_msg("%s succeeded, expected an error", #call);                                                                               \
    PetscErrorMessage(e_, &t_, &m_);                                                                                                           \
    if (!m_ || !strstr(m_, substr)) fail_msg("the error message of %s is \"%s\", which does not contain \"%s\"", #call, m_ ? m_ : "", substr); \
    print_message("  error %d: %s\n", (int)e_, m_);                                                                                            \
  } while (0)

/* Options that AcousticSetFromOptions (when 0), AcousticSetFromOptions or AcousticSetUp (when 3: garbage, code < 0: any
   code), AcousticSetUp (1) or the first AcousticStep (2) refuse, on a 24^3 grid of 20 m with a PML of 4 (host backend). */
void AcTestExpectOptionError(const char *const opts[], int when, PetscErrorCode code, const char *msg);

#endif

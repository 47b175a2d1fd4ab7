#include "test_acoustic_common.h"

static PetscErrorCode set_up_from_options(Acoustic ac)
{
  PetscFunctionBegin;
  PetscCall(AcousticSetFromOptions(ac));
  PetscCall(AcousticSetUp(ac));
  PetscFunctionReturn(0);
}

void AcTestExpectOptionError(const char *const opts[], int when, PetscErrorCode code, const char *msg)
{
  Acoustic ac;

  SbpmgTestSetOption("-ac_backend", "host");
  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], opts[o + 1]);
  PCALL(AcousticCreate(PETSC_COMM_SELF, &ac));
  PCALL(AcousticSetSizes(ac, 24, 24, 24));
  PCALL(AcousticSetDamping(ac, 4));
  if (code < 0)
    EXPECT_ANY_ERROR(when == 0 ? AcousticSetFromOptions(ac) : set_up_from_options(ac), msg);
  else if (when == 0)
    EXPECT_ERROR(AcousticSetFromOptions(ac), code, msg);
  else {
    PCALL(AcousticSetFromOptions(ac));
    if (when == 1)
      EXPECT_ERROR(AcousticSetUp(ac), code, msg);
    else {
      PCALL(AcousticSetUp(ac));
      EXPECT_ERROR(AcousticStep(ac, 25), code, msg);
    }
  }
  PCALL(AcousticDestroy(&ac));
  for (int o = 0; opts[o]; o += 2) SbpmgTestSetOption(opts[o], NULL);
  SbpmgTestSetOption("-ac_backend", NULL);
}

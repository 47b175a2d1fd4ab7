/* Option helpers shared by every sbpmg layer. */
#include <sbpmg/private/climpl.h>

/* PETSc 3.18's PetscOptionsEnum() (PetscOptionsGetEList()) raises its error for a value not in the list without freeing
   what it allocated, and inside PetscOptionsBegin()/End() the options object leaks too; so an enum option is checked
   with this before its options block. list is PetscOptionsEnum()'s: the names, the type name, the prefix, NULL. The
   error is PETSc's own, word for word. */
PetscErrorCode SbpmgOptionsCheckEnum(const char prefix[], const char option[], const char *const list[])
{
  char      value[256], avail[512] = "";
  PetscInt  n = 0, index;
  PetscBool set, found;

  PetscFunctionBegin;
  while (list[n]) n++;
  PetscCheck(n > 3, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The list of %s is not a PetscOptionsEnum() list", option);
  n -= 2; /* the type name and the prefix */
  PetscCall(PetscOptionsGetString(NULL, prefix, option, value, sizeof(value), &set));
  if (!set) PetscFunctionReturn(0);
  PetscCall(PetscEListFind(n, list, value, &index, &found));
  if (found) PetscFunctionReturn(0);
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(PetscStrlcat(avail, list[i], sizeof(avail)));
    PetscCall(PetscStrlcat(avail, " ", sizeof(avail)));
  }
  PetscCall(PetscStrtolower(avail));
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_USER, "Unknown option %s for -%s%s. Available options: %s", value, prefix ? prefix : "", option + 1, avail);
}

/* Option helpers shared by every sbpmg layer. */
#include <sbpmg/private/climpl.h>

/* Map the string value of an option onto its index in a NULL-terminated list of choices; an unknown value is an error
   naming the option, the value and the choices. Used after PetscOptionsEnd() so that a bad value leaks nothing. */
PetscErrorCode SbpmgParseChoice(const char option[], const char value[], const char *const choices[], PetscInt *index)
{
  char     list[512] = "";
  PetscInt n;

  PetscFunctionBegin;
  for (n = 0; choices[n]; n++) {
    PetscBool match;
    PetscCall(PetscStrcasecmp(value, choices[n], &match));
    if (match) {
      *index = n;
      PetscFunctionReturn(0);
    }
    if (n) PetscCall(PetscStrlcat(list, ", ", sizeof(list)));
    PetscCall(PetscStrlcat(list, choices[n], sizeof(list)));
  }
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "Unknown value '%s' for %s: choose one of %s", value, option, list);
}

/* Build the help string "a|b|c" for a list of choices. */
PetscErrorCode SbpmgChoiceList(const char *const choices[], char buf[], size_t len)
{
  PetscFunctionBegin;
  buf[0] = 0;
  for (PetscInt n = 0; choices[n]; n++) {
    if (n) PetscCall(PetscStrlcat(buf, "|", len));
    PetscCall(PetscStrlcat(buf, choices[n], len));
  }
  PetscFunctionReturn(0);
}

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

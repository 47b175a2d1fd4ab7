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

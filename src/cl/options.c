/* Option helpers shared by every sbpmg layer: enum values checked before their block, array options whose -help shows the values in force. */
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

/*@C
   SbpmgOptionsArray - PetscOptionsIntArray() or PetscOptionsRealArray() (inside PetscOptionsBegin()/End()) whose -help line
   shows the values in force when the option is not given: the first nshown entries of value (PETSc 3.18's own line shows
   value[0] only). PETSc reads the option; its line is suppressed (the block's "already printed" flag, for that one call)
   and this one printed instead, in PETSc's format.

   Input Parameters:
+  PetscOptionsObject - the options block's object (PetscOptionsObject inside PetscOptionsBegin()/End())
.  opt, text, man      - as for PetscOptionsIntArray()
.  type                - PETSC_INT (value is a PetscInt array) or PETSC_REAL (a PetscReal array)
.  value               - the values in force; on return, those read if the option is given
.  nshown              - how many entries of value -help shows when the option is not given
-  n                   - the capacity of value; on return, the number of values read

   Output Parameter:
.  set - whether the option was given (or NULL)

   Level: intermediate
@*/
PetscErrorCode SbpmgOptionsArray(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscDataType type, void *value,
                                 PetscInt nshown, PetscInt *n, PetscBool *set)
{
  PetscBool help = PetscOptionsObject->printhelp && PetscOptionsObject->count == 1 && !PetscOptionsObject->alreadyprinted ? PETSC_TRUE : PETSC_FALSE;
  PetscBool given;
  char      shown[256] = "", one[64];

  PetscFunctionBegin;
  PetscCheck(type == PETSC_INT || type == PETSC_REAL, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: SbpmgOptionsArray() reads PETSC_INT or PETSC_REAL values, not %s",
             opt, PetscDataTypes[type]);
  if (help) PetscOptionsObject->alreadyprinted = PETSC_TRUE;
  if (type == PETSC_INT)
    PetscCall(PetscOptionsIntArray(opt, text, man, (PetscInt *)value, n, &given));
  else
    PetscCall(PetscOptionsRealArray(opt, text, man, (PetscReal *)value, n, &given));
  if (set) *set = given;
  if (!help) PetscFunctionReturn(0);
  PetscOptionsObject->alreadyprinted = PETSC_FALSE;
  for (PetscInt i = 0; i < (given ? *n : nshown); i++) {
    if (type == PETSC_INT)
      PetscCall(PetscSNPrintf(one, sizeof(one), "%s%" PetscInt_FMT, i ? "," : "", ((PetscInt *)value)[i]));
    else
      PetscCall(PetscSNPrintf(one, sizeof(one), "%s%g", i ? "," : "", (double)((PetscReal *)value)[i]));
    PetscCall(PetscStrlcat(shown, one, sizeof(shown)));
  }
  PetscCall((*PetscHelpPrintf)(PetscOptionsObject->comm, "  -%s%s <%s>: %s (%s)\n", PetscOptionsObject->prefix ? PetscOptionsObject->prefix : "", opt + 1,
                               shown, text, man ? man : "None"));
  PetscFunctionReturn(0);
}

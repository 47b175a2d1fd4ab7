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

/* An array option whose -help line shows the values in force: PETSc 3.18's own line shows only value[0] of an option not
   given. PETSc's line is suppressed (the block's "already printed" flag, for that one call) and this one printed instead,
   in PETSc's format; reading the option is PETSc's. */
static PetscErrorCode SbpmgOptionsArray(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscDataType type,
                                        void *value, PetscInt nshown, PetscInt *n, PetscBool *set)
{
  PetscBool help = PetscOptionsObject->printhelp && PetscOptionsObject->count == 1 && !PetscOptionsObject->alreadyprinted ? PETSC_TRUE : PETSC_FALSE;
  PetscBool given;
  char      shown[256] = "", one[64];

  PetscFunctionBegin;
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

/*@C
   SbpmgOptionsIntArray - PetscOptionsIntArray() (inside PetscOptionsBegin()/End()) whose -help line shows the values in
   force when the option is not given: the first nshown entries of value (PETSc 3.18's line shows value[0] only).

   Input Parameters:
+  PetscOptionsObject - the options block's object (PetscOptionsObject inside PetscOptionsBegin()/End())
.  opt, text, man      - as for PetscOptionsIntArray()
.  value               - the values in force; on return, those read if the option is given
.  nshown              - how many entries of value -help shows when the option is not given
-  n                   - the capacity of value; on return, the number of values read

   Output Parameter:
.  set - whether the option was given (or NULL)

   Level: intermediate

.seealso: `SbpmgOptionsRealArray()`
@*/
PetscErrorCode SbpmgOptionsIntArray(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscInt value[],
                                    PetscInt nshown, PetscInt *n, PetscBool *set)
{
  PetscFunctionBegin;
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, opt, text, man, PETSC_INT, value, nshown, n, set));
  PetscFunctionReturn(0);
}

/*@C
   SbpmgOptionsRealArray - PetscOptionsRealArray() whose -help line shows the first nshown entries of value when the option
   is not given; the arguments are those of SbpmgOptionsIntArray().

   Level: intermediate

.seealso: `SbpmgOptionsIntArray()`
@*/
PetscErrorCode SbpmgOptionsRealArray(PetscOptionItems *PetscOptionsObject, const char opt[], const char text[], const char man[], PetscReal value[],
                                     PetscInt nshown, PetscInt *n, PetscBool *set)
{
  PetscFunctionBegin;
  PetscCall(SbpmgOptionsArray(PetscOptionsObject, opt, text, man, PETSC_REAL, value, nshown, n, set));
  PetscFunctionReturn(0);
}

/* Option helpers shared by every sbpmg layer: enum values checked before their block, array options whose -help shows the values in force. */
#include <sbpmg/private/climpl.h>
#include <errno.h>

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
-  n                   - the capacity of value (the most values the option takes); on return, the number of values read, or
                         capacity + 1 when more were given (PETSc would drop them): the caller refuses that after the block

   Notes:
   An error inside an options block leaks PETSc's option strings, so this reports and the caller checks after PetscOptionsEnd().

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
  size_t    size       = type == PETSC_INT ? sizeof(PetscInt) : sizeof(PetscReal);
  PetscInt  cap = *n, got = cap + 1;
  void     *buf;

  PetscFunctionBegin;
  PetscCheck(type == PETSC_INT || type == PETSC_REAL, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: SbpmgOptionsArray() reads PETSC_INT or PETSC_REAL values, not %s",
             opt, PetscDataTypes[type]);
  /* one more entry than the capacity: PETSc reads at most that many and drops the rest silently, so a full buffer says "too many" */
  PetscCall(PetscMalloc(size * (size_t)(cap + 1), &buf));
  PetscCall(PetscMemcpy(buf, value, size * (size_t)cap));
  if (help) PetscOptionsObject->alreadyprinted = PETSC_TRUE;
  if (type == PETSC_INT)
    PetscCall(PetscOptionsIntArray(opt, text, man, (PetscInt *)buf, &got, &given));
  else
    PetscCall(PetscOptionsRealArray(opt, text, man, (PetscReal *)buf, &got, &given));
  if (given) {
    PetscCall(PetscMemcpy(value, buf, size * (size_t)PetscMin(got, cap)));
    *n = got;
  }
  PetscCall(PetscFree(buf));
  if (set) *set = given;
  if (!help) PetscFunctionReturn(0);
  PetscOptionsObject->alreadyprinted = PETSC_FALSE;
  for (PetscInt i = 0; i < (given ? PetscMin(*n, cap) : nshown); i++) {
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
   SbpmgOptionsCheckInts - Integer options whose values do not fit a PetscInt: PETSc 3.18 converts with strtol() and a cast, so
   4294967297 reads as 1 with 32-bit indices. Each comma-separated value of each option given is parsed again as a 64-bit
   integer (strtoll()) and refused, naming the option and the value, when it overflows PetscInt. Values that are not integers
   are left to PETSc's own error. Call outside an options block (an error inside one leaks PETSc's option strings).

   Input Parameters:
+  options - the options database (NULL: the default one)
.  prefix  - the options prefix (NULL: none)
-  names   - the option names with their dash, NULL-terminated

   Level: intermediate
@*/
PetscErrorCode SbpmgOptionsCheckInts(PetscOptions options, const char prefix[], const char *const names[])
{
  PetscFunctionBegin;
  for (PetscInt o = 0; names[o]; o++) {
    char        value[256];
    const char *tok;
    PetscBool   set;

    PetscCall(PetscOptionsGetString(options, prefix, names[o], value, sizeof(value), &set));
    if (!set) continue;
    for (tok = value; tok; tok = strchr(tok, ',') ? strchr(tok, ',') + 1 : NULL) {
      char     *end;
      long long v;

      errno = 0;
      v     = strtoll(tok, &end, 10);
      if (end == tok || (*end && *end != ',')) continue; /* not an integer (PETSC_DECIDE, a range a-b, a typo): PETSc's to judge */
      PetscCheck(errno != ERANGE && v >= PETSC_MIN_INT && v <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
                 "-%s%s %s: the value %.*s does not fit a %d-bit PetscInt (at most %" PetscInt_FMT ")", prefix ? prefix : "", names[o] + 1, value,
                 (int)(end - tok), tok, (int)(8 * sizeof(PetscInt)), (PetscInt)PETSC_MAX_INT);
    }
  }
  PetscFunctionReturn(0);
}

/* The error for an array option given more values than it takes (SbpmgOptionsArray() returned capacity + 1): the option and
   the value as given, and what it takes. Call after the options block. */
PetscErrorCode SbpmgOptionsArrayTooMany(MPI_Comm comm, PetscOptions options, const char prefix[], const char name[], PetscInt max, const char takes[])
{
  char value[256] = "";

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(options, prefix, name, value, sizeof(value), NULL));
  SETERRQ(comm, PETSC_ERR_ARG_SIZ, "-%s%s %s: more than %" PetscInt_FMT " values; it takes %s", prefix ? prefix : "", name + 1, value, max, takes);
}

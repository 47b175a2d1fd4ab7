/* The tuning table (include/sbpmg/private/tuning.h) as data: the column of a device class, and -sbpmg_tune overrides. */
#include <sbpmg/private/climpl.h>
#include <stddef.h>

typedef struct {
  const char *key;
  size_t      offset;
  PetscInt    value[SBPMG_NUM_DEVICE_CLASSES];
  PetscInt    lo, hi;
  const char *doc;
} SbpmgTuningRow;

#define SBPMG_TUNING_ROW_(key, cpu, gpu, nv, lo, hi, doc) {#key, offsetof(SbpmgTuning, key), {cpu, gpu, nv}, lo, hi, doc},
static const SbpmgTuningRow SbpmgTuningRows[] = {SBPMG_TUNING(SBPMG_TUNING_ROW_){NULL, 0, {0, 0, 0}, 0, 0, NULL}};
#undef SBPMG_TUNING_ROW_

static const char *const SbpmgDeviceClassNames[] = {"cpu", "gpu", "nvidia"};

static PetscInt *SbpmgTuningField(SbpmgTuning *t, const SbpmgTuningRow *row)
{
  return (PetscInt *)((char *)t + row->offset);
}

/* The column of class c. */
static void SbpmgTuningColumn(SbpmgDeviceClass c, SbpmgTuning *t)
{
  for (const SbpmgTuningRow *row = SbpmgTuningRows; row->key; row++) *SbpmgTuningField(t, row) = row->value[c];
}

static PetscErrorCode SbpmgTuningKeyList(char list[], size_t len)
{
  PetscFunctionBegin;
  list[0] = 0;
  for (const SbpmgTuningRow *row = SbpmgTuningRows; row->key; row++) {
    if (row != SbpmgTuningRows) PetscCall(PetscStrlcat(list, ", ", len));
    PetscCall(PetscStrlcat(list, row->key, len));
  }
  PetscFunctionReturn(0);
}

/* The row of the key item[0..klen) (NULL when there is none) */
static const SbpmgTuningRow *SbpmgTuningFind(const char item[], size_t klen)
{
  for (const SbpmgTuningRow *row = SbpmgTuningRows; row->key; row++)
    if (strlen(row->key) == klen && !strncmp(item, row->key, klen)) return row;
  return NULL;
}

/* One "key=value" item of -sbpmg_tune: an error names a malformed item, an unknown key, a value that is not an integer
   or one outside the row's range. */
static PetscErrorCode SbpmgTuningSetItem(const char item[], SbpmgTuning *t)
{
  const char           *eq = strchr(item, '=');
  const SbpmgTuningRow *row;
  char                  list[4096], *end;
  int                   klen;
  long long             v;

  PetscFunctionBegin;
  PetscCheck(eq && eq != item && eq[1], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-sbpmg_tune item '%s' is not of the form key=value", item);
  klen = (int)(eq - item);
  row  = SbpmgTuningFind(item, (size_t)klen);
  if (!row) {
    PetscCall(SbpmgTuningKeyList(list, sizeof(list)));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_UNKNOWN_TYPE, "-sbpmg_tune: unknown key '%.*s'; the keys are %s", klen, item, list);
  }
  v = strtoll(eq + 1, &end, 10);
  PetscCheck(*end == 0, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-sbpmg_tune %s: the value is not an integer", item);
  PetscCheck(v >= row->lo && v <= row->hi, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE,
             "-sbpmg_tune %s is out of range [%" PetscInt_FMT ", %" PetscInt_FMT "] (%s)", item, row->lo, row->hi, row->doc);
  *SbpmgTuningField(t, row) = (PetscInt)v;
  PetscFunctionReturn(0);
}

/* Apply "key=value,key=value" to t. */
PetscErrorCode SbpmgTuningParse(const char overrides[], SbpmgTuning *t)
{
  char *copy, *item, *save = NULL;

  PetscFunctionBegin;
  if (!overrides || !overrides[0]) PetscFunctionReturn(0);
  PetscCall(PetscStrallocpy(overrides, &copy));
  for (item = strtok_r(copy, ", ", &save); item; item = strtok_r(NULL, ", ", &save)) {
    PetscErrorCode ierr = SbpmgTuningSetItem(item, t);
    if (ierr) {
      PetscCall(PetscFree(copy));
      PetscCall(ierr);
    }
  }
  PetscCall(PetscFree(copy));
  PetscFunctionReturn(0);
}

/* The device class of the context's device: CPU, NVIDIA's GPUs, any other device. */
static SbpmgDeviceClass SbpmgCLDeviceClass(SbpmgCL cl)
{
  if (cl->type & CL_DEVICE_TYPE_CPU) return SBPMG_DEVICE_CPU;
  if (strstr(cl->platform_name, "NVIDIA")) return SBPMG_DEVICE_NVIDIA;
  return SBPMG_DEVICE_GPU;
}

PetscErrorCode SbpmgCLSetUpTuning(SbpmgCL cl, const char overrides[])
{
  PetscFunctionBegin;
  cl->dclass = SbpmgCLDeviceClass(cl);
  SbpmgTuningColumn(cl->dclass, &cl->tune);
  PetscCall(SbpmgTuningParse(overrides, &cl->tune));
  PetscFunctionReturn(0);
}

/* The values in force, marking those that differ from the class's column. */
PetscErrorCode SbpmgCLViewTuning(SbpmgCL cl, PetscViewer viewer)
{
  SbpmgTuning col;
  PetscInt    n = 0;

  PetscFunctionBegin;
  SbpmgTuningColumn(cl->dclass, &col);
  PetscCall(PetscViewerASCIIPrintf(viewer, "tuning: the %s column of include/sbpmg/private/tuning.h", SbpmgDeviceClassNames[cl->dclass]));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  for (const SbpmgTuningRow *row = SbpmgTuningRows; row->key; row++) {
    PetscInt v = *SbpmgTuningField(&cl->tune, row);

    if (v == *SbpmgTuningField(&col, row)) continue;
    PetscCall(PetscViewerASCIIPrintf(viewer, "%s %s=%" PetscInt_FMT, n++ ? "," : "; -sbpmg_tune", row->key, v));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  PetscFunctionReturn(0);
}

/* sbpmg._sbpmg: the C API of libsbpmg (include/sbpmg.h) for Python, through petsc4py's C API, so that the problem, its matrices
   and vectors cross as petsc4py objects (docs/guide.md "From Python"). Thin wrappers: python/sbpmg/__init__.py checks the user's
   arguments, evaluates Python callables and calls these. Every PETSc error becomes petsc4py's PETSc.Error carrying the message. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <sbpmg.h>
#include <petsc4py/petsc4py.h>

/* A PETSc error code from libsbpmg into a PETSc.Error (its traceback, message included, recorded by petsc4py's error handler) */
#define SbpPyCall(call)                                    \
  do {                                                     \
    PetscErrorCode ierr_ = (call);                         \
    if (ierr_) {                                           \
      if (!PyErr_Occurred()) PyPetscError_Set((int)ierr_); \
      return NULL;                                         \
    }                                                      \
  } while (0)

/* A PETSc.Error of code with message, through PETSc's error handler like the library's own errors (the caller names itself). */
static PyObject *SbpPyRaise(PetscErrorCode code, const char *caller, const char *message)
{
  PetscErrorCode ierr = PetscError(PETSC_COMM_SELF, __LINE__, caller, "python/sbpmg", code, PETSC_ERROR_INITIAL, "%s", message);
  PyPetscError_Set((int)(ierr ? ierr : code));
  return NULL;
}

static PyObject *sbp_raise_error(PyObject *self, PyObject *args)
{
  int         code;
  const char *caller, *message;

  if (!PyArg_ParseTuple(args, "iss", &code, &caller, &message)) return NULL;
  return SbpPyRaise((PetscErrorCode)code, caller, message);
}

/* The SbpProblem inside a petsc4py Object, checked */
static int SbpPyGetProblem(PyObject *obj, SbpProblem *p)
{
  PetscObject  o;
  PetscClassId id = 0;

  if (!PyObject_TypeCheck(obj, &PyPetscObject_Type)) {
    PyErr_SetString(PyExc_TypeError, "expected the petsc4py object of an SbpProblem (sbpmg.Problem.handle)");
    return -1;
  }
  o = PyPetscObject_Get(obj);
  if (o && PetscObjectGetClassId(o, &id)) id = 0;
  if (!o || id != SBP_PROBLEM_CLASSID) {
    SbpPyRaise(PETSC_ERR_ARG_NULL, "sbpmg.Problem", "the SBP-SAT problem has been destroyed (Problem.destroy()) or is not an SbpProblem");
    return -1;
  }
  *p = (SbpProblem)o;
  return 0;
}

/* A read-only (or writable) C-contiguous float64 buffer of a Python object; python/sbpmg converts and checks arrays first */
static int SbpPyGetDoubles(PyObject *obj, const char *what, int writable, Py_buffer *view)
{
  if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
  if (!view->format || strcmp(view->format, "d") || view->itemsize != (Py_ssize_t)sizeof(PetscReal)) {
    char msg[256];
    PyBuffer_Release(view);
    snprintf(msg, sizeof(msg), "%s: expected float64 values (numpy.float64)", what);
    SbpPyRaise(PETSC_ERR_ARG_WRONG, "sbpmg._sbpmg", msg);
    return -1;
  }
  return 0;
}

#define SBP_PY_PROBLEM_ARG(fmt, ...)                                      \
  PyObject  *obj;                                                         \
  SbpProblem p;                                                           \
  if (!PyArg_ParseTuple(args, "O" fmt, &obj, ##__VA_ARGS__)) return NULL; \
  if (SbpPyGetProblem(obj, &p)) return NULL

/* ---------------------------------------------------------------- package and problem */

static PyObject *sbp_initialize(PyObject *self, PyObject *args)
{
  SbpPyCall(SbpmgInitializePackage());
  Py_RETURN_NONE;
}

static PyObject *sbp_create(PyObject *self, PyObject *args)
{
  PyObject  *comm = Py_None, *obj;
  SbpProblem p;
  MPI_Comm   c = PETSC_COMM_WORLD;

  if (!PyArg_ParseTuple(args, "|O", &comm)) return NULL;
  if (comm != Py_None) {
    c = PyPetscComm_Get(comm);
    if (PyErr_Occurred()) return NULL;
  }
  SbpPyCall(SbpmgInitializePackage());
  SbpPyCall(SbpProblemCreate(c, &p));
  obj = PyPetscObject_New((PetscObject)p); /* takes a reference of its own */
  SbpPyCall(SbpProblemDestroy(&p));
  return obj;
}

static PyObject *sbp_set_sizes(PyObject *self, PyObject *args)
{
  long Nr, Ns;
  SBP_PY_PROBLEM_ARG("ll", &Nr, &Ns);
  SbpPyCall(SbpProblemSetSizes(p, (PetscInt)Nr, (PetscInt)Ns));
  Py_RETURN_NONE;
}

static PyObject *sbp_get_sizes(PyObject *self, PyObject *args)
{
  PetscInt Nr, Ns;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetSizes(p, &Nr, &Ns));
  return Py_BuildValue("(ll)", (long)Nr, (long)Ns);
}

static PyObject *sbp_set_bc(PyObject *self, PyObject *args)
{
  long face;
  int  type;
  SBP_PY_PROBLEM_ARG("li", &face, &type);
  SbpPyCall(SbpProblemSetBC(p, (PetscInt)face, (SbpBCType)type));
  Py_RETURN_NONE;
}

static PyObject *sbp_get_bc(PyObject *self, PyObject *args)
{
  long      face;
  SbpBCType type;
  SBP_PY_PROBLEM_ARG("l", &face);
  SbpPyCall(SbpProblemGetBC(p, (PetscInt)face, &type));
  return PyLong_FromLong((long)type);
}

static PyObject *sbp_set_backend(PyObject *self, PyObject *args)
{
  int backend;
  SBP_PY_PROBLEM_ARG("i", &backend);
  SbpPyCall(SbpProblemSetBackend(p, (SbpBackend)backend));
  Py_RETURN_NONE;
}

static PyObject *sbp_get_backend(PyObject *self, PyObject *args)
{
  SbpBackend backend;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetBackend(p, &backend));
  return PyLong_FromLong((long)backend);
}

static PyObject *sbp_set_order(PyObject *self, PyObject *args)
{
  long order;
  SBP_PY_PROBLEM_ARG("l", &order);
  SbpPyCall(SbpProblemSetOrder(p, (PetscInt)order));
  Py_RETURN_NONE;
}

static PyObject *sbp_get_order(PyObject *self, PyObject *args)
{
  PetscInt order;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetOrder(p, &order));
  return PyLong_FromLong((long)order);
}

static PyObject *sbp_set_options_prefix(PyObject *self, PyObject *args)
{
  const char *prefix;
  SBP_PY_PROBLEM_ARG("s", &prefix);
  SbpPyCall(SbpProblemSetOptionsPrefix(p, prefix));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_from_options(PyObject *self, PyObject *args)
{
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemSetFromOptions(p));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_up(PyObject *self, PyObject *args)
{
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemSetUp(p));
  Py_RETURN_NONE;
}

static PyObject *sbp_view(PyObject *self, PyObject *args)
{
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemView(p, PETSC_VIEWER_STDOUT_(PetscObjectComm((PetscObject)p))));
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- the grid and mu */

static PyObject *sbp_set_mapping(PyObject *self, PyObject *args)
{
  int type;
  SBP_PY_PROBLEM_ARG("i", &type);
  SbpPyCall(SbpProblemSetMapping(p, (SbpMappingType)type));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_mapping_source(PyObject *self, PyObject *args)
{
  const char *src;
  SBP_PY_PROBLEM_ARG("s", &src);
  SbpPyCall(SbpProblemSetMappingSource(p, src));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_node_coordinates(PyObject *self, PyObject *args)
{
  PyObject      *xo, *yo;
  Py_buffer      x, y;
  PetscErrorCode ierr;
  int            same;
  SBP_PY_PROBLEM_ARG("OO", &xo, &yo);
  if (SbpPyGetDoubles(xo, "x", 0, &x)) return NULL;
  if (SbpPyGetDoubles(yo, "y", 0, &y)) {
    PyBuffer_Release(&x);
    return NULL;
  }
  same = x.len == y.len;
  ierr =
      same ? SbpProblemSetNodeCoordinatesArrays(p, (PetscInt)(x.len / (Py_ssize_t)sizeof(PetscReal)), (const PetscReal *)x.buf, (const PetscReal *)y.buf) : 0;
  PyBuffer_Release(&x);
  PyBuffer_Release(&y);
  if (!same) return SbpPyRaise(PETSC_ERR_ARG_SIZ, "sbpmg._sbpmg.set_node_coordinates", "x and y hold different numbers of values");
  SbpPyCall(ierr);
  Py_RETURN_NONE;
}

static PyObject *sbp_set_mu(PyObject *self, PyObject *args)
{
  int    type;
  double value;
  SBP_PY_PROBLEM_ARG("id", &type, &value);
  SbpPyCall(SbpProblemSetMu(p, (SbpMuType)type, (PetscReal)value));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_mu_source(PyObject *self, PyObject *args)
{
  const char *src;
  SBP_PY_PROBLEM_ARG("s", &src);
  SbpPyCall(SbpProblemSetMuSource(p, src));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_mu_array(PyObject *self, PyObject *args)
{
  PyObject      *mo;
  Py_buffer      mu;
  PetscErrorCode ierr;
  SBP_PY_PROBLEM_ARG("O", &mo);
  if (SbpPyGetDoubles(mo, "mu", 0, &mu)) return NULL;
  ierr = SbpProblemSetMuArray(p, (PetscInt)(mu.len / (Py_ssize_t)sizeof(PetscReal)), (const PetscReal *)mu.buf);
  PyBuffer_Release(&mu);
  SbpPyCall(ierr);
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- the data */

static PyObject *sbp_set_forcing_source(PyObject *self, PyObject *args)
{
  const char *src;
  SBP_PY_PROBLEM_ARG("s", &src);
  SbpPyCall(SbpProblemSetForcingSource(p, src));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_forcing_vector(PyObject *self, PyObject *args)
{
  PyObject *vo;
  Vec       v;
  SBP_PY_PROBLEM_ARG("O!", &PyPetscVec_Type, &vo);
  v = PyPetscVec_Get(vo);
  SbpPyCall(SbpProblemSetForcingVector(p, v));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_exact_source(PyObject *self, PyObject *args)
{
  const char *src;
  SBP_PY_PROBLEM_ARG("s", &src);
  SbpPyCall(SbpProblemSetExactSolutionSource(p, src));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_exact_vector(PyObject *self, PyObject *args)
{
  PyObject *vo;
  Vec       v;
  SBP_PY_PROBLEM_ARG("O!", &PyPetscVec_Type, &vo);
  v = PyPetscVec_Get(vo);
  SbpPyCall(SbpProblemSetExactSolutionVector(p, v));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_boundary_source(PyObject *self, PyObject *args)
{
  long        face;
  int         type;
  const char *src;
  SBP_PY_PROBLEM_ARG("lis", &face, &type, &src);
  SbpPyCall(SbpProblemSetBoundarySource(p, (PetscInt)face, (SbpBCType)type, src));
  Py_RETURN_NONE;
}

static PyObject *sbp_set_boundary_values(PyObject *self, PyObject *args)
{
  long           face;
  int            type;
  PyObject      *go;
  Py_buffer      g;
  PetscErrorCode ierr;
  SBP_PY_PROBLEM_ARG("liO", &face, &type, &go);
  if (SbpPyGetDoubles(go, "values", 0, &g)) return NULL;
  ierr = SbpProblemSetBoundaryValues(p, (PetscInt)face, (SbpBCType)type, (PetscInt)(g.len / (Py_ssize_t)sizeof(PetscScalar)), (const PetscScalar *)g.buf);
  PyBuffer_Release(&g);
  SbpPyCall(ierr);
  Py_RETURN_NONE;
}

/* x, y, nx, ny of one face's nodes into four writable float64 arrays of the face's length */
static PyObject *sbp_face_geometry(PyObject *self, PyObject *args)
{
  long           face;
  PyObject      *o[4];
  Py_buffer      b[4];
  int            got  = 0;
  PetscErrorCode ierr = 0;
  SBP_PY_PROBLEM_ARG("lOOOO", &face, &o[0], &o[1], &o[2], &o[3]);
  for (; got < 4; got++)
    if (SbpPyGetDoubles(o[got], "face geometry", 1, &b[got])) break;
  if (got == 4 && (b[1].len != b[0].len || b[2].len != b[0].len || b[3].len != b[0].len)) {
    for (int k = 0; k < 4; k++) PyBuffer_Release(&b[k]);
    return SbpPyRaise(PETSC_ERR_ARG_SIZ, "sbpmg._sbpmg.face_geometry", "the four arrays x, y, nx, ny must have the same length");
  }
  if (got == 4)
    ierr = SbpProblemGetFaceGeometry(p, (PetscInt)face, (PetscInt)(b[0].len / (Py_ssize_t)sizeof(PetscReal)), (PetscReal *)b[0].buf, (PetscReal *)b[1].buf,
                                     (PetscReal *)b[2].buf, (PetscReal *)b[3].buf);
  for (int k = 0; k < got; k++) PyBuffer_Release(&b[k]);
  if (got < 4) return NULL;
  SbpPyCall(ierr);
  Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- matrices and vectors (petsc4py objects, each with its reference) */

static PyObject *SbpPyMat(Mat A)
{
  PyObject *obj = PyPetscMat_New(A);
  MatDestroy(&A);
  return obj;
}

static PyObject *SbpPyVec(Vec v)
{
  PyObject *obj = PyPetscVec_New(v);
  VecDestroy(&v);
  return obj;
}

static PyObject *sbp_create_operator(PyObject *self, PyObject *args)
{
  int assembled = 0;
  Mat A;
  SBP_PY_PROBLEM_ARG("|p", &assembled);
  if (assembled)
    SbpPyCall(SbpProblemCreateAssembledOperator(p, &A));
  else
    SbpPyCall(SbpProblemCreateOperator(p, &A));
  return SbpPyMat(A);
}

static PyObject *sbp_create_norm(PyObject *self, PyObject *args)
{
  int type;
  Mat H;
  SBP_PY_PROBLEM_ARG("i", &type);
  SbpPyCall(SbpProblemCreateNorm(p, (SbpNormType)type, &H));
  return SbpPyMat(H);
}

static PyObject *sbp_create_vector(PyObject *self, PyObject *args)
{
  Vec v;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemCreateVector(p, &v));
  return SbpPyVec(v);
}

static PyObject *sbp_get_coordinates(PyObject *self, PyObject *args)
{
  Vec x, y;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetCoordinates(p, &x, &y));
  return Py_BuildValue("(NN)", SbpPyVec(x), SbpPyVec(y));
}

static PyObject *sbp_get_corners(PyObject *self, PyObject *args)
{
  PetscInt xs, ys, xm, ym;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetCorners(p, &xs, &ys, &xm, &ym));
  return Py_BuildValue("(llll)", (long)xs, (long)ys, (long)xm, (long)ym);
}

static PyObject *sbp_compute_rhs(PyObject *self, PyObject *args)
{
  PyObject *vo;
  SBP_PY_PROBLEM_ARG("O!", &PyPetscVec_Type, &vo);
  SbpPyCall(SbpProblemComputeRHS(p, PyPetscVec_Get(vo)));
  Py_RETURN_NONE;
}

static PyObject *sbp_compute_exact(PyObject *self, PyObject *args)
{
  PyObject *vo;
  SBP_PY_PROBLEM_ARG("O!", &PyPetscVec_Type, &vo);
  SbpPyCall(SbpProblemComputeExactSolution(p, PyPetscVec_Get(vo)));
  Py_RETURN_NONE;
}

static PyObject *sbp_compute_error(PyObject *self, PyObject *args)
{
  PyObject *vo;
  PetscReal eH, eJH;
  SBP_PY_PROBLEM_ARG("O!", &PyPetscVec_Type, &vo);
  SbpPyCall(SbpProblemComputeError(p, PyPetscVec_Get(vo), &eH, &eJH));
  return Py_BuildValue("(dd)", (double)eH, (double)eJH);
}

static PyObject *sbp_get_rhs_shift(PyObject *self, PyObject *args)
{
  PetscReal shift, sum;
  SBP_PY_PROBLEM_ARG("");
  SbpPyCall(SbpProblemGetRHSShift(p, &shift, &sum));
  return Py_BuildValue("(dd)", (double)shift, (double)sum);
}

static PyMethodDef SbpPyMethods[] = {{"initialize", sbp_initialize, METH_NOARGS, "SbpmgInitializePackage()"},
                                     {"raise_error", sbp_raise_error, METH_VARARGS, "raise_error(code, caller, message): PETSc.Error"},
                                     {"create", sbp_create, METH_VARARGS, "create([comm]) -> the SbpProblem as a PETSc.Object"},
                                     {"set_sizes", sbp_set_sizes, METH_VARARGS, NULL},
                                     {"get_sizes", sbp_get_sizes, METH_VARARGS, NULL},
                                     {"set_bc", sbp_set_bc, METH_VARARGS, NULL},
                                     {"get_bc", sbp_get_bc, METH_VARARGS, NULL},
                                     {"set_backend", sbp_set_backend, METH_VARARGS, NULL},
                                     {"get_backend", sbp_get_backend, METH_VARARGS, NULL},
                                     {"set_order", sbp_set_order, METH_VARARGS, NULL},
                                     {"get_order", sbp_get_order, METH_VARARGS, NULL},
                                     {"set_options_prefix", sbp_set_options_prefix, METH_VARARGS, NULL},
                                     {"set_from_options", sbp_set_from_options, METH_VARARGS, NULL},
                                     {"set_up", sbp_set_up, METH_VARARGS, NULL},
                                     {"view", sbp_view, METH_VARARGS, NULL},
                                     {"set_mapping", sbp_set_mapping, METH_VARARGS, NULL},
                                     {"set_mapping_source", sbp_set_mapping_source, METH_VARARGS, NULL},
                                     {"set_node_coordinates", sbp_set_node_coordinates, METH_VARARGS, NULL},
                                     {"set_mu", sbp_set_mu, METH_VARARGS, NULL},
                                     {"set_mu_source", sbp_set_mu_source, METH_VARARGS, NULL},
                                     {"set_mu_array", sbp_set_mu_array, METH_VARARGS, NULL},
                                     {"set_forcing_source", sbp_set_forcing_source, METH_VARARGS, NULL},
                                     {"set_forcing_vector", sbp_set_forcing_vector, METH_VARARGS, NULL},
                                     {"set_exact_source", sbp_set_exact_source, METH_VARARGS, NULL},
                                     {"set_exact_vector", sbp_set_exact_vector, METH_VARARGS, NULL},
                                     {"set_boundary_source", sbp_set_boundary_source, METH_VARARGS, NULL},
                                     {"set_boundary_values", sbp_set_boundary_values, METH_VARARGS, NULL},
                                     {"face_geometry", sbp_face_geometry, METH_VARARGS, NULL},
                                     {"create_operator", sbp_create_operator, METH_VARARGS, NULL},
                                     {"create_norm", sbp_create_norm, METH_VARARGS, NULL},
                                     {"create_vector", sbp_create_vector, METH_VARARGS, NULL},
                                     {"get_coordinates", sbp_get_coordinates, METH_VARARGS, NULL},
                                     {"get_corners", sbp_get_corners, METH_VARARGS, NULL},
                                     {"compute_rhs", sbp_compute_rhs, METH_VARARGS, NULL},
                                     {"compute_exact", sbp_compute_exact, METH_VARARGS, NULL},
                                     {"compute_error", sbp_compute_error, METH_VARARGS, NULL},
                                     {"get_rhs_shift", sbp_get_rhs_shift, METH_VARARGS, NULL},
                                     {NULL, NULL, 0, NULL}};

static struct PyModuleDef SbpPyModule = {PyModuleDef_HEAD_INIT, "sbpmg._sbpmg", "The C API of libsbpmg through petsc4py (python/sbpmg).", -1, SbpPyMethods};

PyMODINIT_FUNC PyInit__sbpmg(void)
{
  if (import_petsc4py() < 0) return NULL;
  return PyModule_Create(&SbpPyModule);
}

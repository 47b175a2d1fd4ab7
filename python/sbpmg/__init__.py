"""sbpmg from Python: matrix-free SBP-SAT operators and the sbpmg multigrid preconditioner with petsc4py and numpy.

``import sbpmg`` registers the library's types with petsc4py's PETSc (so ``-pc_type sbpmg`` and ``pc.setType("sbpmg")`` work in
any petsc4py program) and gives :class:`Problem`: the 2D problem -div(mu grad u) = f on a mapped grid, its grid, mu, forcing and
face data given as numpy arrays, Python callables (evaluated once, vectorised over numpy arrays of the nodes' coordinates) or
OpenCL C source strings; it returns petsc4py ``Mat`` and ``Vec`` objects that PETSc's KSP uses directly. Errors are petsc4py's
``PETSc.Error`` with the library's message. docs/guide.md "From Python" is the user's page.

Node values are in natural order: node (i, j) (i along r, 0..Nr; j along s, 0..Ns) at index i + (Nr+1) j of a flat array, or at
[j, i] of a C-ordered array of shape (Ns+1, Nr+1). A face's values run along it: j = 0..Ns on faces 1 (r = -1) and 2 (r = +1),
i = 0..Nr on faces 3 (s = -1) and 4 (s = +1).
"""
import numbers
import sys

import petsc4py

if "petsc4py.PETSc" not in sys.modules:  # PETSc not yet initialised: let it read the command line (-pc_type sbpmg ...)
    petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

from . import _sbpmg as _C  # noqa: E402
from ._checks import fail, node_values, face_values, evaluate  # noqa: E402

__all__ = ["Problem", "PETSc", "PCSBPMG", "KSPSBPCG", "MATSBPSAT", "DIRICHLET", "NEUMANN"]

PCSBPMG = "sbpmg"
KSPSBPCG = "sbpcg"
MATSBPSAT = "sbpsat"
DIRICHLET, NEUMANN = 0, 1
_BACKENDS = {"auto": 0, "device": 1, "host": 2}
_MAPPINGS = {"curved": 0, "square": 1}
_NORMS = {"H": 0, "Hinv": 1, "JH": 2, "JHinv": 3}

_C.initialize()  # SbpmgInitializePackage(): PCSBPMG, KSPSBPCG, MATSBPSAT, the device vectors


def _is_source(v):
    return isinstance(v, str)


class Problem:
    """An SBP-SAT problem (SbpProblem): sizes, faces, grid and mu fixed at set-up (the constructor), data changeable afterwards.

    n         -- N or (Nr, Ns): grid intervals along r and s
    bc        -- the faces' conditions, one letter per face 1..4 ("DNDN"); default the library's (DDNN)
    mapping   -- "curved" (the default) or "square"; (x, y) node arrays; a callable (r, s) -> (x, y) over the reference nodes'
                 arrays; or OpenCL C source defining ``void sbp_user_mapping(double r, double s, double X[6])``
    mu        -- "basin" (the default), a number (constant), node values, a callable (x, y) -> mu, or OpenCL C source defining
                 ``double sbp_user_mu(double x, double y)``
    forcing   -- f: node values, a callable (x, y) -> f, or source defining ``double sbp_user_forcing(double x, double y)``
    boundary  -- {face: data}: gD (Dirichlet) or gN = n.(mu grad u) (Neumann) as values along the face, a callable
                 (x, y, nx, ny) -> g with (nx, ny) the unit outward normal, or source defining
                 ``double sbp_user_boundary_<face>(double x, double y, double nx, double ny)``
    exact     -- the exact solution for error(): node values, a callable (x, y) -> u, or source defining
                 ``double sbp_user_exact(double x, double y)`` (the device backend)
    backend   -- "auto", "device" (OpenCL kernels on device vectors) or "host"
    order     -- the SBP order: 2 (the default), 4 or 6 (docs/guide.md "Higher order")
    device, device_type, platform -- the OpenCL device (-cl_device, -cl_device_type, -cl_platform): they take effect before the
                 first device use of the process
    prefix    -- options prefix of the problem's -sbp_* options
    options   -- read the -sbp_* options (SbpProblemSetFromOptions), which override the arguments above that they name
    comm      -- a petsc4py Comm (default PETSC_COMM_WORLD)

    Until any datum is given the data are the library's manufactured solution; once one is given the others are zero until
    given (docs/guide.md "The right-hand side").
    """

    def __init__(self, n=None, *, bc=None, mapping=None, mu=None, forcing=None, boundary=None, exact=None, backend=None,
                 order=None, device=None, device_type=None, platform=None, prefix=None, options=True, comm=None):
        self._forcing_vec = None
        self._exact_vec = None
        self._prefix = prefix or ""
        self._mapping_arg = mapping if isinstance(mapping, str) else None
        self.handle = None
        for name, value in (("device", device), ("device_type", device_type), ("platform", platform)):
            if value is not None:
                PETSc.Options().setValue("-cl_" + name, str(value))
        self.handle = _C.create(comm)  # a petsc4py PETSc.Object holding the SbpProblem
        try:
            self._build(n, bc, mapping, mu, forcing, boundary, exact, backend, order, prefix, options)
        except BaseException:
            self.destroy()  # nothing half-made outlives the error
            raise

    def _build(self, n, bc, mapping, mu, forcing, boundary, exact, backend, order, prefix, options):
        if prefix:
            _C.set_options_prefix(self.handle, prefix)
        if n is not None:
            try:
                Nr, Ns = (int(n), int(n)) if isinstance(n, numbers.Integral) else (int(v) for v in n)
            except (TypeError, ValueError) as exc:
                fail(62, "sbpmg.Problem", f"n: expected N or (Nr, Ns), integers; got {n!r}", exc)
            _C.set_sizes(self.handle, Nr, Ns)
        if bc is not None:
            if len(bc) != 4 or any(c not in "DNdn" for c in bc):
                fail(62, "sbpmg.Problem", f"bc: expected one letter D or N per face 1..4 (as \"DNDN\"); got {bc!r}")
            for face, c in enumerate(bc, 1):
                _C.set_bc(self.handle, face, DIRICHLET if c in "Dd" else NEUMANN)
        if backend is not None:
            if backend not in _BACKENDS:
                fail(62, "sbpmg.Problem", f"backend: expected one of {', '.join(_BACKENDS)}; got {backend!r}")
            _C.set_backend(self.handle, _BACKENDS[backend])
        if order is not None:
            if not isinstance(order, numbers.Integral) or isinstance(order, bool):
                fail(62, "sbpmg.Problem", f"order: expected 2, 4 or 6; got {order!r}")
            _C.set_order(self.handle, int(order))
        if isinstance(mapping, str) and mapping in _MAPPINGS:
            _C.set_mapping(self.handle, _MAPPINGS[mapping])
        if isinstance(mu, str) and mu == "basin":
            _C.set_mu(self.handle, 0, 0.0)
        elif isinstance(mu, (int, float)) and not isinstance(mu, bool):
            _C.set_mu(self.handle, 1, float(mu))
        if options:
            _C.set_from_options(self.handle)
        self._set_grid(mapping)
        self._set_mu(mu)
        _C.set_up(self.handle)
        if forcing is not None:
            self.set_forcing(forcing)
        for face, data in (boundary or {}).items():
            self.set_boundary(face, data)
        if exact is not None:
            self.set_exact(exact)

    # ------------------------------------------------------------ sizes, coordinates
    @property
    def sizes(self):
        """(Nr, Ns): the grid's intervals along r and s."""
        return _C.get_sizes(self.handle)

    @property
    def order(self):
        """The SBP order: 2, 4 or 6."""
        return _C.get_order(self.handle)

    @property
    def backend(self):
        """"device" or "host": where the operator runs (resolved at set-up)."""
        return {1: "device", 2: "host"}.get(_C.get_backend(self.handle), "auto")

    def bc(self, face):
        """The condition of face 1..4: sbpmg.DIRICHLET or sbpmg.NEUMANN."""
        return _C.get_bc(self.handle, int(face))

    def _owned(self):
        xs, ys, xm, ym = _C.get_corners(self.handle)
        return slice(ys, ys + ym), slice(xs, xs + xm), (ym, xm)

    def coordinates(self):
        """x, y of this rank's nodes as numpy arrays of shape (ym, xm): on one rank (Ns+1, Nr+1), node (i, j) at [j, i]."""
        vx, vy = _C.get_coordinates(self.handle)
        _, _, shape = self._owned()
        x, y = vx.getArray(readonly=True).reshape(shape).copy(), vy.getArray(readonly=True).reshape(shape).copy()
        vx.destroy()
        vy.destroy()
        return x, y

    def reference_coordinates(self):
        """r, s of all nodes, arrays of shape (Ns+1, Nr+1)."""
        import numpy as np

        Nr, Ns = self.sizes
        return np.meshgrid(np.linspace(-1, 1, Nr + 1), np.linspace(-1, 1, Ns + 1))

    # ------------------------------------------------------------ grid and mu (before set-up)
    def _set_grid(self, mapping):
        if mapping is None or (isinstance(mapping, str) and mapping in _MAPPINGS):
            self._grid = None
            return
        Nr, Ns = self.sizes
        if _is_source(mapping):
            _C.set_mapping_source(self.handle, mapping)
            self._grid = None
            return
        if callable(mapping):
            r, s = self.reference_coordinates()
            xy = evaluate("mapping", mapping, (r, s), None, outputs=2)
        else:
            if not isinstance(mapping, (tuple, list)) or len(mapping) != 2:
                fail(62, "sbpmg.Problem", "mapping: expected \"curved\", \"square\", a pair (x, y) of node arrays, a callable (r, s) -> (x, y) "
                     f"or OpenCL source; got {type(mapping).__name__}")
            xy = mapping
        x = node_values("mapping x", xy[0], Nr, Ns)
        y = node_values("mapping y", xy[1], Nr, Ns)
        _C.set_node_coordinates(self.handle, x, y)
        self._grid = (x.reshape(Ns + 1, Nr + 1), y.reshape(Ns + 1, Nr + 1))

    def _grid_before_setup(self):
        """All nodes' (x, y) before set-up: the node arrays, or the map (built in or source) evaluated by a one-rank problem."""
        if self._grid is not None:
            return self._grid
        if PETSc.COMM_WORLD.getSize() > 1:
            fail(73, "sbpmg.Problem", "mu: a callable needs the grid as node arrays or a callable on several ranks; give mu as values or source")
        mapping = self._mapping_arg
        if mapping is None:  # the built-in map that the options chose
            mapping = PETSc.Options(self._prefix).getString("sbp_mapping", "curved")
        tmp = Problem(self.sizes, mapping=mapping, mu=1.0, options=False, comm=PETSc.COMM_SELF)
        try:
            return tmp.coordinates()
        finally:
            tmp.destroy()

    def _set_mu(self, mu):
        Nr, Ns = self.sizes
        if mu is None or isinstance(mu, (int, float)) and not isinstance(mu, bool) or (isinstance(mu, str) and mu == "basin"):
            return
        if _is_source(mu):
            _C.set_mu_source(self.handle, mu)
            return
        if callable(mu):
            x, y = self._grid_before_setup()
            mu = evaluate("mu", mu, (x, y), x.shape)
        _C.set_mu_array(self.handle, node_values("mu", mu, Nr, Ns))

    # ------------------------------------------------------------ data (any time after set-up)
    def _owned_values(self, name, values):
        Nr, Ns = self.sizes
        rows, cols, _ = self._owned()
        return node_values(name, values, Nr, Ns).reshape(Ns + 1, Nr + 1)[rows, cols]

    def set_forcing(self, forcing):
        """f: node values, a callable (x, y) -> f (evaluated now at the nodes), or OpenCL source (sbp_user_forcing)."""
        if _is_source(forcing):
            _C.set_forcing_source(self.handle, forcing)
            return
        if callable(forcing):
            x, y = self.coordinates()
            vals = evaluate("forcing", forcing, (x, y), x.shape)
        else:
            vals = self._owned_values("forcing", forcing)
        v = _C.create_vector(self.handle)  # the problem's own layout
        v.setArray(vals.ravel())
        _C.set_forcing_vector(self.handle, v)  # the library holds a reference; this one is dropped at the next set_forcing
        self._keep_vec("_forcing_vec", v)

    def set_boundary(self, face, data):
        """Face 1..4's gD or gN (as its condition): values along the face, a callable (x, y, nx, ny) -> g, or OpenCL source."""
        if face not in (1, 2, 3, 4):
            fail(63, "sbpmg.Problem.set_boundary", f"face {face!r} does not exist: faces are 1..4 (1 r = -1, 2 r = +1, 3 s = -1, 4 s = +1)")
        kind = self.bc(face)
        Nr, Ns = self.sizes
        n = Ns + 1 if face <= 2 else Nr + 1
        if _is_source(data):
            _C.set_boundary_source(self.handle, face, kind, data)
            return
        if callable(data):
            data = evaluate(f"boundary[{face}]", data, self.face_geometry(face), (n,))
        _C.set_boundary_values(self.handle, face, kind, face_values(f"boundary[{face}]", data, n, face))

    def face_geometry(self, face):
        """x, y, nx, ny at face 1..4's nodes along it, (nx, ny) the unit outward normal: what a face callable is given (the whole
        face on every rank; SbpProblemGetFaceGeometry)."""
        import numpy as np

        if face not in (1, 2, 3, 4):
            fail(63, "sbpmg.Problem.face_geometry", f"face {face!r} does not exist: faces are 1..4 (1 r = -1, 2 r = +1, 3 s = -1, 4 s = +1)")
        Nr, Ns = self.sizes
        geo = tuple(np.empty(Ns + 1 if face <= 2 else Nr + 1) for _ in range(4))
        _C.face_geometry(self.handle, face, *geo)
        return geo

    def set_exact(self, exact):
        """The exact solution for error(): node values, a callable (x, y) -> u (evaluated now at the nodes), or OpenCL source
        (sbp_user_exact; the device backend)."""
        if _is_source(exact):
            _C.set_exact_source(self.handle, exact)
            self._keep_vec("_exact_vec", None)
            return
        if callable(exact):
            x, y = self.coordinates()
            vals = evaluate("exact", exact, (x, y), x.shape)
        else:
            vals = self._owned_values("exact", exact)
        v = _C.create_vector(self.handle)  # the problem's own layout
        v.setArray(vals.ravel())
        _C.set_exact_vector(self.handle, v)  # SbpProblemSetExactSolutionVector: the library holds a reference
        self._keep_vec("_exact_vec", v)

    def _keep_vec(self, name, v):
        """Hold v as attribute name, destroying the vector held there before (the library keeps its own reference)."""
        old = getattr(self, name)
        if old is not None:
            old.destroy()
        setattr(self, name, v)

    # ------------------------------------------------------------ matrices and vectors (petsc4py)
    def operator(self):
        """The matrix-free operator M~ (a petsc4py Mat; on the device backend its vectors are device vectors). It keeps the problem
        alive: destroying the Problem while the Mat lives leaves the Mat valid."""
        return _C.create_operator(self.handle, False)

    def assembled_operator(self):
        """M~ assembled (AIJ, on the host): for direct solvers and PETSc's algebraic preconditioners."""
        return _C.create_operator(self.handle, True)

    def norm(self, kind="H"):
        """The diagonal norm matrix: "H" (H~), "Hinv", "JH" (diag(J) H~) or "JHinv"."""
        if kind not in _NORMS:
            fail(62, "sbpmg.Problem.norm", f"kind: expected one of {', '.join(_NORMS)}; got {kind!r}")
        return _C.create_norm(self.handle, _NORMS[kind])

    def create_vector(self):
        """A vector laid out like the solution (a device vector on the device backend)."""
        return _C.create_vector(self.handle)

    def rhs(self, b=None):
        """b = J H f + the SAT terms of the face data (SbpProblemComputeRHS) into b, or into a new vector; returns b."""
        if b is None:
            b = _C.create_vector(self.handle)
        _C.compute_rhs(self.handle, b)
        return b

    def exact_solution(self):
        """The exact solution at the nodes as a vector: the one given (set_exact) or the manufactured one."""
        v = _C.create_vector(self.handle)
        _C.compute_exact(self.handle, v)
        return v

    def error(self, u, exact=None):
        """(||u - ue||_H, ||u - ue||_JH) by SbpProblemComputeError: against exact (values, callable or OpenCL source), else the
        one given, else the manufactured one. With every face Neumann, modulo the constants (each norm's weighted mean of the
        error removed)."""
        if exact is not None:
            self.set_exact(exact)
        return _C.compute_error(self.handle, u)

    def rhs_shift(self):
        """Every face Neumann: (s, 1^T b) of the last right-hand side (the constant removed from f, the sum before)."""
        return _C.get_rhs_shift(self.handle)

    def view(self):
        _C.view(self.handle)

    def destroy(self):
        """Drop this Problem's reference (matrices made from it keep theirs)."""
        self._keep_vec("_forcing_vec", None)
        self._keep_vec("_exact_vec", None)
        if self.handle is not None:
            self.handle.destroy()
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.destroy()

"""The ways of giving a problem from Python combine (docs/guide.md "From Python"): the grid built in or a Python function (node
coordinates), mu a number, a Python function, node values or OpenCL source, the data Python functions, node and face values or
OpenCL source. Every combination solves the same problem (u = sin(pi x) cos(pi y), mu = 3, faces DNDN): equal errors to rounding,
and the error of the manufactured problem the library builds in C where the grid is the same."""
import itertools

import numpy as np
import pytest
import sbpmg
from sbpmg import PETSc

PI = "3.141592653589793"


def exact(x, y):
    return np.sin(np.pi * x) * np.cos(np.pi * y)


def flux(x, y, nx, ny):
    return 3 * np.pi * (nx * np.cos(np.pi * x) * np.cos(np.pi * y) - ny * np.sin(np.pi * x) * np.sin(np.pi * y))


def warped(r, s):
    return r + 0.1 * np.sin(np.pi * s), s + 0.1 * np.sin(np.pi * r)


MUS = {"number": 3.0, "callable": lambda x, y: 3 + 0 * x, "values": None, "source": "double sbp_user_mu(double x, double y) { return 3.0; }\n"}
SRC_F = f"double sbp_user_forcing(double x, double y) {{ return 6.0 * {PI} * {PI} * sin({PI} * x) * cos({PI} * y); }}\n"


def src_face(face):
    head = f"double sbp_user_boundary_{face}(double x, double y, double nx, double ny) "
    if face % 2:
        return head + f"{{ return sin({PI} * x) * cos({PI} * y); }}\n"
    return head + f"{{ return 3.0 * {PI} * (nx * cos({PI} * x) * cos({PI} * y) - ny * sin({PI} * x) * sin({PI} * y)); }}\n"


def give_data(p, how):
    if how == "callable":
        p.set_forcing(lambda x, y: 6 * np.pi**2 * exact(x, y))
        for face in (1, 2, 3, 4):
            p.set_boundary(face, (lambda x, y, nx, ny: exact(x, y)) if face % 2 else flux)
    elif how == "source":
        p.set_forcing(SRC_F)
        for face in (1, 2, 3, 4):
            p.set_boundary(face, src_face(face))
    else:  # values: f at the nodes, each face's data at its nodes
        x, y = p.coordinates()
        p.set_forcing(6 * np.pi**2 * exact(x, y))
        for face in (1, 2, 3, 4):
            fx, fy, nx, ny = p.face_geometry(face)
            p.set_boundary(face, exact(fx, fy) if face % 2 else flux(fx, fy, nx, ny))


def solve(p):
    A = p.operator()
    u, b = A.createVecs()
    p.rhs(b)
    ksp = PETSc.KSP().create()
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("sbpmg")
    ksp.setTolerances(rtol=1e-12, atol=1e-300)
    ksp.solve(b, u)
    assert ksp.getConvergedReason() > 0
    e = p.error(u)
    for o in (ksp, A, u, b):
        o.destroy()
    return e


@pytest.mark.parametrize("grid", ["curved", "warped"])
def test_every_combination_gives_the_same_errors(grid):
    n = 24
    mapping = warped if grid == "warped" else "curved"
    errors = {}
    for mu, data in itertools.product(MUS, ["callable", "values", "source"]):
        m = MUS[mu]
        if mu == "values":
            with sbpmg.Problem(n, mapping=mapping, mu=1.0, options=False) as q:
                m = np.full(q.coordinates()[0].shape, 3.0)
        with sbpmg.Problem(n, bc="DNDN", mapping=mapping, mu=m, exact=exact, options=False) as p:
            give_data(p, data)
            errors[mu, data] = solve(p)
    ref = errors["number", "callable"]
    for key, e in errors.items():
        assert e == pytest.approx(ref, rel=1e-10), (key, e, ref)
    if grid == "curved":  # the library's own manufactured problem (mu = 3, the same faces): the data made in C
        with sbpmg.Problem(n, bc="DNDN", mapping="curved", mu=3.0, options=False) as p:
            assert solve(p) == pytest.approx(ref, rel=1e-8)

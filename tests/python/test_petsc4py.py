"""sbpmg inside petsc4py: -pc_type sbpmg from the command line of a petsc4py program, pc.setType("sbpmg") beside an assembled
preconditioning matrix against a direct solve, the vectors on the device where the problem is."""
import re
import subprocess
import sys

import numpy as np
import pytest
import sbpmg
from sbpmg import PETSc

PROGRAM = r"""
import sys
{init}
import sbpmg
from petsc4py import PETSc
p = sbpmg.Problem(32)
A = p.operator()
u, b = A.createVecs()
p.rhs(b)
ksp = PETSc.KSP().create()
ksp.setOperators(A)
ksp.setFromOptions()          # everything from the command line
ksp.solve(b, u)
print("pc type", ksp.getPC().getType(), "iterations", ksp.getIterationNumber(), "error", p.error(u)[0])
for o in (ksp, A, u, b):
    o.destroy()
p.destroy()
"""
LEAK = re.compile(r"\[ *[0-9]+\] *[0-9]+ bytes [A-Za-z_0-9]+\(\) at ")


@pytest.mark.parametrize("init", ["import petsc4py; petsc4py.init(sys.argv)", ""])
def test_pc_type_sbpmg_from_the_command_line(init, tmp_path):
    script = tmp_path / "prog.py"
    script.write_text(PROGRAM.format(init=init))
    run = subprocess.run([sys.executable, str(script), "-ksp_type", "cg", "-pc_type", "sbpmg", "-ksp_rtol", "1e-10", "-ksp_view"],
                         capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "PC Object: 1 MPI process" in out and "type: sbpmg" in out, out
    m = re.search(r"pc type sbpmg iterations (\d+) error (\S+)", out)
    assert m, out
    assert 0 < int(m.group(1)) < 30 and 1e-4 < float(m.group(2)) < 1e-2, out
    assert not LEAK.search(out), out


def test_set_type_with_an_assembled_pmat_against_a_direct_solve():
    with sbpmg.Problem((32, 24), bc="DNDN", mapping="curved") as p:
        A, P = p.operator(), p.assembled_operator()
        u, b = A.createVecs()
        p.rhs(b)
        ksp = PETSc.KSP().create()
        ksp.setOperators(A, P)
        ksp.setType("cg")
        ksp.getPC().setType("sbpmg")
        ksp.setTolerances(rtol=1e-12)
        ksp.solve(b, u)
        direct = PETSc.KSP().create()
        direct.setOperators(P)
        direct.setType("preonly")
        direct.getPC().setType("lu")
        bh, uh = P.createVecs()
        bh.setArray(b.getArray(readonly=True))
        direct.solve(bh, uh)
        diff = np.abs(u.getArray(readonly=True) - uh.getArray(readonly=True)).max()
        assert ksp.getConvergedReason() > 0 and diff < 1e-8 * np.abs(uh.getArray(readonly=True)).max(), diff
        for o in (ksp, direct, A, P, u, b, bh, uh):
            o.destroy()


def order_error(n, order):
    """||e||_H of CG + sbpmg to 1e-12 on the manufactured problem of the given order, and the problem's order as it reports it."""
    with sbpmg.Problem(n, order=order) as p:
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
        e, reported = p.error(u)[0], p.order
        for o in (ksp, A, u, b):
            o.destroy()
    return e, reported


def test_order_four_and_six_from_python():
    """order=4, 6: the observed orders of the curved basin's error in the bands of docs/verification.md "Orders 4 and 6"."""
    for order, sizes, band in ((4, (32, 64), (3.6, 4.3)), (6, (32, 64), (4.7, 5.5))):
        (e1, o1), (e2, o2) = (order_error(n, order) for n in sizes)
        observed = np.log2(e1 / e2)
        print(f"order {order}: errors {e1:.4e}, {e2:.4e}, observed order {observed:.3f}")
        assert o1 == o2 == order
        assert band[0] < observed < band[1], observed


def test_vectors_live_where_the_problem_runs():
    with sbpmg.Problem(16) as p:
        A = p.operator()
        u, _ = A.createVecs()
        v = p.create_vector()
        if p.backend == "device":
            assert "opencl" in u.getType() and "opencl" in v.getType(), (u.getType(), v.getType())
        else:
            assert "opencl" not in u.getType()
        for o in (A, u, _, v):
            o.destroy()
    with sbpmg.Problem(16, backend="host") as p:
        assert p.backend == "host"
        v = p.create_vector()
        assert "opencl" not in v.getType()
        v.destroy()


def test_coordinates_are_the_mapping_given():
    r = np.linspace(-1, 1, 21)
    s = np.linspace(-1, 1, 11)
    R, S = np.meshgrid(r, s)
    with sbpmg.Problem((20, 10), mapping=lambda r, s: (2 * r + 0.1 * s, s + 0.05 * r * r)) as p:
        x, y = p.coordinates()
        assert x.shape == (11, 21)
        assert np.allclose(x, 2 * R + 0.1 * S, rtol=0, atol=1e-14) and np.allclose(y, S + 0.05 * R * R, rtol=0, atol=1e-14)

"""examples/python against C programs that bring the same problem through the C API (docs/guide.md "From Python"):
annulus.py's errors equal those of tests/python/annulus_reference.c to 10 digits, and on the warped grid those of
verification/convergence -conv_problem own (to the 7 digits of its CSV)."""
import csv
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "python"))
import annulus  # noqa: E402

OUT = os.environ.get("SBPMG_PYTHON_OUT", ".")


def c_errors(grid, sizes):
    """{N: (eH, eJH, iterations)} of the C program; its environment is the test's (PETSC_OPTIONS included)."""
    exe = os.environ["SBPMG_ANNULUS_REFERENCE"]
    out = subprocess.run([exe, "-grid", grid, "-n", ",".join(map(str, sizes)), "-rtol", "1e-12"], check=True, capture_output=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[0].isdigit():
            rows[int(f[0])] = (float(f[1]), float(f[2]), int(f[3]))
    assert sorted(rows) == sorted(sizes), out
    return rows


@pytest.mark.parametrize("grid", ["annulus", "warped"])
def test_errors_equal_the_c_program_to_10_digits(grid):
    sizes = [16, 32, 64]
    ref = c_errors(grid, sizes)
    for n in sizes:
        eH, eJH, its = annulus.solve(n, getattr(annulus, grid))
        cH, cJH, cits = ref[n]
        print(f"{grid} N = {n}: Python {eH:.12e} {eJH:.12e} ({its} its), C {cH:.12e} {cJH:.12e} ({cits} its)")
        assert eH == pytest.approx(cH, rel=1e-10, abs=0)
        assert eJH == pytest.approx(cJH, rel=1e-10, abs=0)
        assert its == cits


def test_warped_grid_equals_verification_convergence_own():
    prefix = os.path.join(OUT, "python_conv_own")
    subprocess.run([os.environ["SBPMG_CONVERGENCE"], "-conv_problem", "own", "-conv_n", "16,32", "-conv_solvers", "mgcg", "-conv_rtol", "1e-12",
                    "-conv_plot", "0", "-conv_output", prefix], check=True, capture_output=True)
    with open(prefix + ".csv") as f:
        rows = {int(r["Nr"]): (float(r["error_H"]), float(r["error_JH"])) for r in csv.DictReader(f)}
    for n, (cH, cJH) in rows.items():
        eH, eJH, _ = annulus.solve(n, annulus.warped)
        assert eH == pytest.approx(cH, rel=2e-6, abs=0)  # the CSV's %.6e
        assert eJH == pytest.approx(cJH, rel=2e-6, abs=0)


def test_order_two_on_the_annulus():
    e = [annulus.solve(n)[0] for n in (32, 64, 128)]
    orders = [__import__("math").log2(e[k] / e[k + 1]) for k in range(2)]
    assert 1.9 < orders[-1] < 2.1, orders

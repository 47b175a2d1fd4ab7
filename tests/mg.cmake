# src/mg: the sbpmg preconditioner
sbpmg_add_test(mg SOURCES test_mg.c LABELS mg asan TIMEOUT 600)

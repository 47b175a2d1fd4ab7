eval "$(bash .devdeps/petsc-runtime.sh env .devdeps)" >/dev/null 2>&1
export LD_LIBRARY_PATH=$PWD/build-slim:$LD_LIBRARY_PATH OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ts() { echo "== ts $*"; build-slim/bench/timeseries_bench -bench_n 1024,2048,4096 -ts_steps 20 -ts_t0 1000 "$@" 2>&1 | grep -E "^ +(1024|2048|4096) "; }
sb() { echo "== sbp_bench"; build-slim/bench/sbp_bench -bench_n 1024,2048,4096,8192 -bench_reps 3 -bench_solve_reps 3 "$@" 2>&1 | grep -E "^ +(1024|2048|4096|8192) "; }
sb -bench_mg_prefixes a_,e_,g_,h_,i_ -a_pc_sbpmg_coarse_solve cholmod -a_pc_sbpmg_coarse_size 129 -e_pc_sbpmg_coarse_size 33 -e_pc_sbpmg_nu_max 4 -g_pc_sbpmg_coarse_size 129 -g_pc_sbpmg_nu_max 4 -h_pc_sbpmg_coarse_size 129 -h_pc_sbpmg_nu_max 6 -i_pc_sbpmg_coarse_size 65 -i_pc_sbpmg_coarse_solve dense -i_pc_sbpmg_nu_max 4
ts -pc_sbpmg_coarse_size 129 -pc_sbpmg_nu_max 4
ts -pc_sbpmg_coarse_size 33 -pc_sbpmg_nu_max 4

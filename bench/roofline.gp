# Roofline of the measured H200 kernels (docs/performance.md): gnuplot bench/roofline.gp
# Points: arithmetic intensity (flop per byte moved at the minimum byte count) and achieved Gflop/s, from the 2026-11-29 runs (apply: run Y, the register cap of the fourth pass).
set terminal pngcairo size 900,620 noenhanced font ",11"
set output 'docs/img/roofline.png'
set logscale xy
set xrange [0.05:100]
set yrange [50:100000]
set xlabel 'arithmetic intensity (flop / byte)'
set ylabel 'Gflop/s'
set title 'sbpmg on the NVIDIA H200 (OpenCL, 2026-11-29): measured copy bandwidth 4197 GB/s'
set grid
set key bottom right
bw = 4197.0
fp64 = 34000.0
fp32 = 67000.0
mem(x) = bw * x
roof64(x) = (mem(x) < fp64) ? mem(x) : fp64
roof32(x) = (mem(x) < fp32) ? mem(x) : fp32
$points << EOD
# name                         AI      Gflop/s
"VecAXPY 2^28 (fp64)"          0.0833  342.9
"VecDot 2^28 (fp64)"           0.125   551.6
"VecNorm 2^28 (fp64)"          0.25    1074.8
"SBP apply 8192^2 (fp64)"      0.875   3250.5
"acoustic 800^3 (fp32)"        3.14    9413.0
EOD
plot roof64(x) with lines lw 2 lc rgb '#1f77b4' title 'roof: copy bandwidth, fp64 peak 34 Tflop/s', \
     roof32(x) with lines lw 1 dt 2 lc rgb '#ff7f0e' title 'fp32 peak 67 Tflop/s', \
     $points using 2:3:1 with labels point pt 7 ps 1.3 offset 1,0.8 left notitle

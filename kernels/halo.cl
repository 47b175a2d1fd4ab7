/* The device side of the ghost exchange of a DMDA (box stencil) on several MPI ranks (src/halo/halo.c).

   A rank's local part of a global vector is its owned block, xm x ym nodes, r fastest. The kernels of the multi-rank path
   read it as a ghosted patch, gxm x gym nodes, the owned block at offset (ox, oy) inside it. halo_pack copies the owned
   block into the patch and, in the same launch, gathers the values the neighbours need (the strips of the owned block
   that lie in their ghosted patches) into one small contiguous buffer, which is all the host reads. halo_unpack scatters
   the strips received from the neighbours into the ghost region of the patch. Each work-item writes distinct entries. The values
   are SBPMG_HALO_REAL: fp64 for the operator's vectors, fp32 for the single-precision V-cycle's (src/halo/halo.c). */
#if defined(SBPMG_HAVE_FP64)
  #pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if !defined(SBPMG_HALO_REAL)
  #error "SBPMG_HALO_REAL must be defined (src/halo/halo.c: the precision of the exchange)"
#endif
typedef SBPMG_HALO_REAL halo_real;

/* patch[(i + ox) + gxm (j + oy)] = x[i + xm j] for the owned block; send[t] = x[sidx[t]] for t < nsend.
   Global range max(xm ym, nsend). */
__kernel void halo_pack(const int xm, const int ym, const int ox, const int oy, const int gxm, __global const halo_real *x, __global halo_real *patch, const int nsend,
                        __global const int *sidx, __global halo_real *send)
{
  const long t = get_global_id(0);
  if (t < (long)xm * ym) {
    const long j = t / xm, i = t - j * xm;
    patch[(i + ox) + (long)gxm * (j + oy)] = x[t];
  }
  if (t < nsend) send[t] = x[sidx[t]];
}

/* patch[ridx[t]] = recv[t] for t < nrecv */
__kernel void halo_unpack(const int nrecv, __global const int *ridx, __global const halo_real *recv, __global halo_real *patch)
{
  const long t = get_global_id(0);
  if (t < nrecv) patch[ridx[t]] = recv[t];
}

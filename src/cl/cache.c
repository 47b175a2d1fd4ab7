/* The on-disk cache of program binaries (-cl_cache_dir; docs/design.md "Program cache"): a program built once is stored,
   keyed by everything its binary depends on (source, build options, platform, device, device and driver versions, the
   library's version), and later processes load the binary instead of compiling. Entries are written to a temporary file and
   renamed into place, so concurrent processes never see half a file; a file that is short, corrupt, or that the driver
   refuses is removed and the program rebuilt. A directory that cannot be written only turns the cache off (-info says so). */
#include <sbpmg/private/climpl.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#define SBPMG_CACHE_MAGIC "SBPMGCL1"

/* FNV-1a over a byte string, continuing from h. */
static uint64_t SbpmgCacheHash(uint64_t h, const void *data, size_t n)
{
  const unsigned char *p = (const unsigned char *)data;

  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

/* The key of a program: what its binary depends on, except the source, as text; the source enters through its hash and length. */
static PetscErrorCode SbpmgCacheKey(SbpmgCL cl, const char source[], const char options[], char **key)
{
  size_t   slen, len;
  uint64_t sh;
  char    *k;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(source, &slen));
  sh = SbpmgCacheHash(0xcbf29ce484222325ULL, source, slen);
  PetscCall(PetscStrlen(options, &len));
  len += 1024 + sizeof(cl->platform_name) + sizeof(cl->device_name) + sizeof(cl->device_version) + sizeof(cl->driver_version);
  PetscCall(PetscMalloc1(len, &k));
  PetscCall(PetscSNPrintf(k, len, "sbpmg %d.%d.%d\nplatform %s\ndevice %s\nversion %s\ndriver %s\noptions %s\nsource %zu %016llx\n", SBPMG_VERSION_MAJOR,
                          SBPMG_VERSION_MINOR, SBPMG_VERSION_PATCH, cl->platform_name, cl->device_name, cl->device_version, cl->driver_version, options, slen,
                          (unsigned long long)sh));
  *key = k;
  PetscFunctionReturn(0);
}

/* The entry's file name: two hashes of the key (with different offsets) as 32 hex digits. */
static PetscErrorCode SbpmgCachePath(SbpmgCL cl, const char key[], char path[], size_t plen)
{
  size_t   len;
  uint64_t h1, h2;

  PetscFunctionBegin;
  PetscCall(PetscStrlen(key, &len));
  h1 = SbpmgCacheHash(0xcbf29ce484222325ULL, key, len);
  h2 = SbpmgCacheHash(0x84222325cbf29ce4ULL, key, len);
  PetscCall(PetscSNPrintf(path, plen, "%s/%016llx%016llx.bin", cl->cache_dir, (unsigned long long)h1, (unsigned long long)h2));
  PetscFunctionReturn(0);
}

/* Read a whole file into memory (NULL, 0 when it cannot be read). */
static PetscErrorCode SbpmgCacheReadFile(const char path[], unsigned char **data, size_t *n)
{
  FILE *f = fopen(path, "rb");
  long  size;

  PetscFunctionBegin;
  *data = NULL;
  *n    = 0;
  if (!f) PetscFunctionReturn(0);
  if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
    PetscCall(PetscMalloc1((size_t)size, data));
    if (fread(*data, 1, (size_t)size, f) == (size_t)size)
      *n = (size_t)size;
    else
      PetscCall(PetscFree(*data));
  }
  (void)fclose(f);
  PetscFunctionReturn(0);
}

/* Parse an entry: magic, key length and key, binary length and binary, FNV-1a of the binary. Returns the binary's place in data,
   or NULL when the entry is not for this key or is damaged. */
static const unsigned char *SbpmgCacheParse(const unsigned char *data, size_t n, const char key[], size_t *binlen)
{
  size_t   klen = strlen(key), off = 8;
  uint64_t len, blen, sum;

  if (n < 8 + 3 * sizeof(uint64_t) || memcmp(data, SBPMG_CACHE_MAGIC, 8)) return NULL;
  memcpy(&len, data + off, sizeof(len));
  off += sizeof(len);
  if (len != klen || n - off < len || memcmp(data + off, key, klen)) return NULL;
  off += len;
  if (n - off < 2 * sizeof(uint64_t)) return NULL;
  memcpy(&blen, data + off, sizeof(blen));
  off += sizeof(blen);
  if (blen == 0 || n - off != blen + sizeof(uint64_t)) return NULL;
  memcpy(&sum, data + off + blen, sizeof(sum));
  if (sum != SbpmgCacheHash(0xcbf29ce484222325ULL, data + off, blen)) return NULL;
  *binlen = blen;
  return data + off;
}

/*
  SbpmgCLCacheLoad - The program for (source, options) from the disk cache, built from its binary; NULL on a miss. A damaged or
  refused entry is removed (the caller then builds from source and stores a new one).
*/
PetscErrorCode SbpmgCLCacheLoad(SbpmgCL cl, const char source[], const char options[], cl_program *program)
{
  char                 path[PETSC_MAX_PATH_LEN], *key;
  unsigned char       *data;
  const unsigned char *bin;
  size_t               n, blen = 0;
  cl_int               err, status;

  PetscFunctionBegin;
  *program = NULL;
  if (!cl->cache_dir[0]) PetscFunctionReturn(0);
  PetscCall(SbpmgCacheKey(cl, source, options, &key));
  PetscCall(SbpmgCachePath(cl, key, path, sizeof(path)));
  PetscCall(SbpmgCacheReadFile(path, &data, &n));
  if (data) {
    bin = SbpmgCacheParse(data, n, key, &blen);
    if (bin) {
      *program = clCreateProgramWithBinary(cl->context, 1, &cl->device, &blen, &bin, &status, &err);
      if (err == CL_SUCCESS && status == CL_SUCCESS)
        err = clBuildProgram(*program, 1, &cl->device, options, NULL, NULL);
      else if (err == CL_SUCCESS)
        err = status;
      if (err != CL_SUCCESS) {
        if (*program) (void)clReleaseProgram(*program);
        *program = NULL;
        PetscCall(PetscInfo(NULL, "sbpmg kernel cache: %s refused by the driver (%s); rebuilding\n", path, SbpmgCLErrorName(err)));
      }
    } else
      PetscCall(PetscInfo(NULL, "sbpmg kernel cache: %s is damaged or for another key; rebuilding\n", path));
    if (!*program) (void)unlink(path);
    PetscCall(PetscFree(data));
  }
  PetscCall(PetscFree(key));
  PetscFunctionReturn(0);
}

/* Make dir and its parents (like mkdir -p); false when it cannot be made or is not a directory. */
static PetscBool SbpmgCacheMakeDir(const char dir[])
{
  char        buf[PETSC_MAX_PATH_LEN];
  struct stat st;
  size_t      n = strlen(dir);

  if (n == 0 || n >= sizeof(buf)) return PETSC_FALSE;
  memcpy(buf, dir, n + 1);
  for (size_t i = 1; i <= n; i++) {
    if (buf[i] != '/' && buf[i] != 0) continue;
    buf[i] = 0;
    if (mkdir(buf, 0755) != 0 && errno != EEXIST) return PETSC_FALSE;
    buf[i] = i < n ? '/' : 0;
  }
  return (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) ? PETSC_TRUE : PETSC_FALSE;
}

/*
  SbpmgCLCacheStore - Store the binary of a program just built from source. Failures to write only turn the cache off for this
  context (-info tells why): the program itself is fine.
*/
PetscErrorCode SbpmgCLCacheStore(SbpmgCL cl, const char source[], const char options[], cl_program program)
{
  char           path[PETSC_MAX_PATH_LEN], tmp[PETSC_MAX_PATH_LEN + 64], *key;
  size_t         blen = 0, klen;
  unsigned char *bin  = NULL;
  uint64_t       len, sum;
  FILE          *f;
  PetscBool      ok = PETSC_FALSE;

  PetscFunctionBegin;
  if (!cl->cache_dir[0]) PetscFunctionReturn(0);
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(blen), &blen, NULL) != CL_SUCCESS || blen == 0) PetscFunctionReturn(0);
  PetscCall(PetscMalloc1(blen, &bin));
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(bin), &bin, NULL) != CL_SUCCESS) {
    PetscCall(PetscFree(bin));
    PetscFunctionReturn(0);
  }
  PetscCall(SbpmgCacheKey(cl, source, options, &key));
  PetscCall(SbpmgCachePath(cl, key, path, sizeof(path)));
  PetscCall(PetscSNPrintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid()));
  klen = strlen(key);
  if (SbpmgCacheMakeDir(cl->cache_dir) && (f = fopen(tmp, "wb"))) {
    len = klen;
    sum = SbpmgCacheHash(0xcbf29ce484222325ULL, bin, blen);
    ok  = fwrite(SBPMG_CACHE_MAGIC, 1, 8, f) == 8 && fwrite(&len, sizeof(len), 1, f) == 1 && fwrite(key, 1, klen, f) == klen;
    len = blen;
    ok  = ok && fwrite(&len, sizeof(len), 1, f) == 1 && fwrite(bin, 1, blen, f) == blen && fwrite(&sum, sizeof(sum), 1, f) == 1;
    ok  = (fclose(f) == 0) && ok;
    ok  = ok && rename(tmp, path) == 0; /* atomic: a reader sees the old entry, none, or the whole new one */
    if (!ok) (void)unlink(tmp);
  }
  if (ok) {
    cl->stats.programs_stored++;
    SbpmgCLTotals.programs_stored++;
  } else {
    PetscCall(PetscInfo(NULL, "sbpmg kernel cache: cannot write to %s (%s); the cache is off for this device context\n", cl->cache_dir, strerror(errno)));
    cl->cache_dir[0] = 0;
  }
  PetscCall(PetscFree(key));
  PetscCall(PetscFree(bin));
  PetscFunctionReturn(0);
}

/* The default directory: $XDG_CACHE_HOME/sbpmg, else $HOME/.cache/sbpmg (empty when neither is set). */
PetscErrorCode SbpmgCLCacheDefaultDir(char dir[], size_t len)
{
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");

  PetscFunctionBegin;
  dir[0] = 0;
  if (xdg && xdg[0] == '/')
    PetscCall(PetscSNPrintf(dir, len, "%s/sbpmg", xdg));
  else if (home && home[0])
    PetscCall(PetscSNPrintf(dir, len, "%s/.cache/sbpmg", home));
  PetscFunctionReturn(0);
}

/* src/cl/cache.c: the disk cache of program binaries (-cl_cache_dir). A program built once is stored; a new context loads it
   instead of compiling and the loaded kernel computes what the compiled one does; a damaged or foreign entry is rebuilt and
   rewritten, never trusted; a directory that cannot be written turns the cache off without an error; "none" turns it off. */
#include "harness.h"
#include <dirent.h>
#include <unistd.h>

/* The entries (*.bin) in dir, and the path of the last one found. */
static int count_entries(const char *dir, char path[], size_t len)
{
  DIR           *d = opendir(dir);
  struct dirent *e;
  int            n = 0;

  if (!d) return 0;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l > 4 && !strcmp(e->d_name + l - 4, ".bin")) {
      n++;
      if (path && strlen(dir) + l + 2 <= len) {
        memcpy(path, dir, strlen(dir));
        path[strlen(dir)] = '/';
        memcpy(path + strlen(dir) + 1, e->d_name, l + 1);
      }
    }
  }
  closedir(d);
  return n;
}

/* A context on the cache dir, the selftest axpy from it (y = y + a x on 1000 entries, checked against the host), its counters. */
static void axpy_through_cache(const char *dir, SbpmgCLStats *s, char cache_dir_seen[], size_t len)
{
  SbpmgCL   cl;
  cl_kernel k;
  cl_mem    xd, yd;
  double    x[1000], y[1000], out[1000], alpha = 0.25;
  int       n = 1000;

  for (int i = 0; i < n; i++) {
    x[i] = sin(0.01 * i);
    y[i] = cos(0.02 * i);
  }
  SbpmgTestCreateContext("-cl_cache_dir", dir, &cl);
  if (cache_dir_seen) PCALL(PetscStrncpy(cache_dir_seen, cl->cache_dir, len));
  SbpmgTestSelftestAxpy(cl, "-DSBPMG_SELFTEST_T=double -DSBPMG_CACHE_TEST=1", n, alpha, x, y, &k, &xd, &yd);
  PCALL(SbpmgCLLaunch1D(cl, k, n, 64));
  PCALL(SbpmgCLReadBuffer(cl, yd, 0, sizeof(out), out));
  for (int i = 0; i < n; i++)
    if (fabs(out[i] - (y[i] + alpha * x[i])) > 4 * DBL_EPSILON) fail_msg("axpy entry %d: device %.17g host %.17g", i, out[i], y[i] + alpha * x[i]);
  PCALL(SbpmgCLGetStats(cl, s));
  PCALL(SbpmgCLReleaseBuffer(cl, &xd));
  PCALL(SbpmgCLReleaseBuffer(cl, &yd));
  PCALL(SbpmgCLDestroy(&cl));
}

static void make_temp_dir(char dir[], size_t len)
{
  snprintf(dir, len, "%s/sbpmg-cache-test-XXXXXX", P_tmpdir);
  assert_non_null(mkdtemp(dir));
}

static void remove_dir(const char *dir)
{
  char path[2 * PETSC_MAX_PATH_LEN];
  while (count_entries(dir, path, sizeof(path))) assert_int_equal(unlink(path), 0);
  assert_int_equal(rmdir(dir), 0);
}

static void test_store_then_load(void **state)
{
  char         dir[PETSC_MAX_PATH_LEN], entry[2 * PETSC_MAX_PATH_LEN];
  SbpmgCLStats s;

  make_temp_dir(dir, sizeof(dir));
  axpy_through_cache(dir, &s, NULL, 0); /* cold: compiled from source and stored */
  assert_int_equal(s.programs_built, 1);
  assert_int_equal(s.programs_from_disk, 0);
  assert_int_equal(s.programs_stored, 1);
  assert_int_equal(count_entries(dir, entry, sizeof(entry)), 1);
  axpy_through_cache(dir, &s, NULL, 0); /* warm: the binary, and the same results */
  assert_int_equal(s.programs_built, 1);
  assert_int_equal(s.programs_from_disk, 1);
  assert_int_equal(s.programs_stored, 0);
  assert_int_equal(count_entries(dir, NULL, 0), 1);
  remove_dir(dir);
}

/* Damage the entry in three ways: a flipped byte of the binary (its checksum), a truncated file, a file of another format. */
static void test_damaged_entry_rebuilt(void **state)
{
  char         dir[PETSC_MAX_PATH_LEN], entry[2 * PETSC_MAX_PATH_LEN];
  SbpmgCLStats s;

  make_temp_dir(dir, sizeof(dir));
  axpy_through_cache(dir, &s, NULL, 0);
  assert_int_equal(count_entries(dir, entry, sizeof(entry)), 1);
  for (int damage = 0; damage < 3; damage++) {
    FILE *f = fopen(entry, "r+b");
    long  size;

    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    size = ftell(f);
    if (damage == 0) { /* one byte inside the binary */
      int c;
      assert_int_equal(fseek(f, size - 16, SEEK_SET), 0);
      c = fgetc(f);
      assert_int_equal(fseek(f, size - 16, SEEK_SET), 0);
      fputc(c ^ 0x5a, f);
      fclose(f);
    } else if (damage == 1) {
      fclose(f);
      assert_int_equal(truncate(entry, size / 2), 0);
    } else {
      assert_int_equal(fseek(f, 0, SEEK_SET), 0);
      fputs("not an sbpmg cache entry", f);
      fclose(f);
    }
    axpy_through_cache(dir, &s, NULL, 0); /* compiled again, and the entry rewritten */
    assert_int_equal(s.programs_from_disk, 0);
    assert_int_equal(s.programs_stored, 1);
    axpy_through_cache(dir, &s, NULL, 0); /* ... which loads */
    assert_int_equal(s.programs_from_disk, 1);
    assert_int_equal(count_entries(dir, NULL, 0), 1);
  }
  remove_dir(dir);
}

static void test_unwritable_and_none(void **state)
{
  char         seen[PETSC_MAX_PATH_LEN];
  SbpmgCLStats s;

  /* a directory that cannot be made (its parent is a device file, even for root): built, not stored, no error; the cache off */
  axpy_through_cache("/dev/null/sbpmg-cache", &s, NULL, 0);
  assert_int_equal(s.programs_built, 1);
  assert_int_equal(s.programs_stored, 0);
  axpy_through_cache("none", &s, seen, sizeof(seen));
  assert_string_equal(seen, "");
  assert_int_equal(s.programs_from_disk, 0);
  assert_int_equal(s.programs_stored, 0);
}

int main(int argc, char **argv)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_store_then_load),
      cmocka_unit_test(test_damaged_entry_rebuilt),
      cmocka_unit_test(test_unwritable_and_none),
  };
  return SbpmgTestMain(argc, argv, "sbpmg disk cache of program binaries", tests, sizeof(tests) / sizeof(tests[0]), __FILE__);
}

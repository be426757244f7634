/* test_infile.c: plain and gzip input, and its errors. */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "util/infile.h"
#include "util/mem.h"

static char tmpdir[] = "/tmp/gp_test_infile_XXXXXX";
static char *content;
static size_t content_len;

/* The path of `name` in the test's directory (a static buffer per name). */
static const char *tmp_path(const char *name)
{
    static char paths[32][256];
    static const char *names[32];
    int i = 0;
    while (i < 32 && names[i] && strcmp(names[i], name) != 0)
        i++;
    if (i == 32)
        return "/nonexistent/too-many-test-files";
    names[i] = name;
    snprintf(paths[i], sizeof paths[i], "%s/%s", tmpdir, name);
    return paths[i];
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (!f)
        return;
    CHECK_EQ_INT(fwrite(data, 1, len, f), len);
    fclose(f);
}

static void write_gzip(const char *path, const char *mode, const void *data, size_t len)
{
    gzFile gz = gzopen(path, mode);
    CHECK(gz != NULL);
    if (!gz)
        return;
    CHECK_EQ_INT(gzwrite(gz, data, (unsigned)len), len);
    gzclose(gz);
}

/* Text like a netlist's, with a pseudo-random twist so that it compresses
 * only moderately. */
static void make_content(void)
{
    content_len = 3u << 20;
    content = malloc(content_len);
    uint32_t x = 12345;
    for (size_t i = 0; i < content_len; i++) {
        x = x * 1103515245u + 12345u;
        content[i] = i % 61 == 60 ? '\n' : "abcdefgh ();,._0123"[(x >> 16) % 19];
    }
}

static long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long)sb.st_size : -1;
}

/* Reads the whole file with infile_read in pieces of `piece` bytes. */
static int read_in_pieces(const char *path, size_t piece, bool gzip, size_t expect_len,
                          const char *expect)
{
    diag_ctx *d = diag_new(NULL);
    infile *f = NULL;
    int bad = 0;
    if (infile_open(path, d, &f) != GP_OK)
        return 1;
    bad += infile_is_gzip(f) != gzip;
    bad += strcmp(infile_path(f), path) != 0;
    bad += infile_size_hint(f) != (uint64_t)file_size(path);
    char *buf = malloc(expect_len + piece);
    size_t total = 0, got;
    do {
        if (infile_read(f, buf + total, piece, &got) != GP_OK)
            bad++;
        bad += got != piece && total + got != expect_len; /* short only at the end */
        total += got;
    } while (got == piece);
    bad += total != expect_len || memcmp(buf, expect, expect_len) != 0;
    bad += infile_read(f, buf, piece, &got) != GP_OK || got != 0; /* again at the end */
    bad += infile_raw_pos(f) != (uint64_t)file_size(path);
    bad += diag_error_count(d) + diag_warning_count(d);
    free(buf);
    infile_close(f);
    diag_free(d);
    return bad;
}

static void test_plain_and_gzip_give_the_same_bytes(void)
{
    const char *plain = tmp_path("a.v"), *gz = tmp_path("a.v.gz"), *disguised = tmp_path("b.v");
    write_file(plain, content, content_len);
    write_gzip(gz, "wb", content, content_len);
    write_gzip(disguised, "wb6", content, content_len); /* gzip without .gz */
    CHECK(file_size(gz) < (long)content_len);
    static const size_t pieces[] = {1u << 20, 7777, 65536, 1};
    for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
        size_t len = pieces[i] == 1 ? 100000 : content_len; /* byte by byte: a prefix */
        write_file(tmp_path("p.v"), content, len);
        write_gzip(tmp_path("p.v.gz"), "wb", content, len);
        CHECK_EQ_INT(read_in_pieces(tmp_path("p.v"), pieces[i], false, len, content), 0);
        CHECK_EQ_INT(read_in_pieces(tmp_path("p.v.gz"), pieces[i], true, len, content), 0);
    }
    CHECK_EQ_INT(read_in_pieces(disguised, 1u << 20, true, content_len, content), 0);
    CHECK_EQ_INT(read_in_pieces(plain, 3u << 20, false, content_len, content), 0);
}

static void test_read_all(void)
{
    diag_ctx *d = diag_new(NULL);
    char *data;
    size_t len;
    write_gzip(tmp_path("all.gz"), "wb", content, 200000);
    CHECK_EQ_INT(infile_read_all(tmp_path("all.gz"), d, &data, &len), GP_OK);
    CHECK_EQ_INT(len, 200000);
    CHECK(data && memcmp(data, content, len) == 0 && data[len] == '\0');
    mem_free(data);

    write_file(tmp_path("small.lib"), "library (x) { }\n", 16);
    CHECK_EQ_INT(infile_read_all(tmp_path("small.lib"), d, &data, &len), GP_OK);
    CHECK_EQ_INT(len, 16);
    CHECK_EQ_STR(data, "library (x) { }\n");
    mem_free(data);

    write_file(tmp_path("empty"), "", 0);
    CHECK_EQ_INT(infile_read_all(tmp_path("empty"), d, &data, &len), GP_OK);
    CHECK_EQ_INT(len, 0);
    CHECK_EQ_STR(data, "");
    mem_free(data);

    write_file(tmp_path("one"), "\x1f", 1); /* half a magic: plain */
    CHECK_EQ_INT(infile_read_all(tmp_path("one"), d, &data, &len), GP_OK);
    CHECK(len == 1 && data[0] == 0x1f);
    mem_free(data);
    CHECK_EQ_INT(diag_error_count(d), 0);
    diag_free(d);
}

/* A plain file of 8 MB or more is read in parts on threads: the same bytes,
 * in order, NUL-terminated, with an odd length so that the parts' ends fall
 * anywhere. */
static void test_read_all_large_in_parts(void)
{
    size_t copies = 5, len = copies * content_len - 3;
    char *big = malloc(len);
    for (size_t k = 0; k < len; k++)
        big[k] = (char)(content[k % content_len] + (char)(k / content_len));
    write_file(tmp_path("big.v"), big, len);
    diag_ctx *d = diag_new(NULL);
    char *data;
    size_t got;
    CHECK_EQ_INT(infile_read_all(tmp_path("big.v"), d, &data, &got), GP_OK);
    CHECK_EQ_INT(got, len);
    CHECK(data && memcmp(data, big, len) == 0 && data[len] == '\0');
    CHECK_EQ_INT(diag_error_count(d) + diag_warning_count(d), 0);
    mem_free(data);
    diag_free(d);
    free(big);
}

static void test_concatenated_members(void)
{
    const char *path = tmp_path("multi.gz");
    write_gzip(path, "wb", content, 1000);
    write_gzip(path, "ab", content + 1000, 500000); /* appends a second member */
    CHECK_EQ_INT(read_in_pieces(path, 4096, true, 501000, content), 0);
}

static void test_trailing_garbage_is_a_warning(void)
{
    diag_ctx *d = diag_new(NULL);
    const char *path = tmp_path("junk.gz");
    write_gzip(path, "wb", content, 5000);
    FILE *f = fopen(path, "ab");
    fputs("junk", f);
    fclose(f);
    char *data;
    size_t len;
    CHECK_EQ_INT(infile_read_all(path, d, &data, &len), GP_OK);
    CHECK(len == 5000 && memcmp(data, content, len) == 0);
    CHECK_EQ_INT(diag_count_of(d, 1105), 1);
    CHECK_EQ_INT(diag_error_count(d), 0);
    mem_free(data);
    diag_free(d);
}

/* Reads a damaged gzip file to its end: the status and the message number. */
static void check_damaged(const char *path, const void *bytes, size_t len, int msgno)
{
    write_file(path, bytes, len);
    diag_ctx *d = diag_new(NULL);
    infile *f;
    CHECK_EQ_INT(infile_open(path, d, &f), GP_OK);
    char *buf = malloc(1 << 20);
    size_t got;
    gp_status st;
    do {
        st = infile_read(f, buf, 1 << 20, &got);
    } while (st == GP_OK && got > 0);
    CHECK_EQ_INT(st, GP_ERR_IO);
    CHECK_EQ_INT(infile_read(f, buf, 10, &got), GP_ERR_IO); /* stays failed */
    CHECK_EQ_INT(got, 0);
    CHECK_EQ_INT(diag_first_error_no(d), msgno);
    CHECK_EQ_INT(diag_error_count(d), 1);
    CHECK(strstr(diag_first_error_text(d), path) != NULL);
    free(buf);
    infile_close(f);
    diag_free(d);
}

static void test_truncated_and_corrupt_gzip(void)
{
    const char *good = tmp_path("good.gz");
    write_gzip(good, "wb", content, content_len);
    char *gz;
    size_t gz_len;
    diag_ctx *d = diag_new(NULL);
    CHECK_EQ_INT(infile_read_all(good, d, &gz, &gz_len), GP_OK); /* decompressed: check size */
    CHECK_EQ_INT(gz_len, content_len);
    mem_free(gz);
    diag_free(d);

    gz_len = (size_t)file_size(good);
    gz = malloc(gz_len);
    FILE *f = fopen(good, "rb");
    CHECK_EQ_INT(fread(gz, 1, gz_len, f), gz_len);
    fclose(f);
    check_damaged(tmp_path("half.gz"), gz, gz_len / 2, 1104);
    check_damaged(tmp_path("no_trailer.gz"), gz, gz_len - 4, 1104);
    check_damaged(tmp_path("header_only.gz"), gz, 5, 1104);
    gz[gz_len - 6] ^= 0x55; /* in the CRC-32 of the trailer */
    check_damaged(tmp_path("bad_crc.gz"), gz, gz_len, 1103);
    free(gz);
}

static void test_cannot_open(void)
{
    diag_ctx *d = diag_new(NULL);
    static int not_a_file;
    infile *f = (infile *)&not_a_file; /* must be reset to NULL */
    const char *missing = tmp_path("no_such_file.v");
    CHECK_EQ_INT(infile_open(missing, d, &f), GP_ERR_IO);
    CHECK(f == NULL);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), missing) != NULL);
    CHECK(strstr(diag_first_error_text(d), strerror(ENOENT)) != NULL);
    diag_free(d);

    d = diag_new(NULL);
    char *data = (char *)"x";
    size_t len = 7;
    CHECK_EQ_INT(infile_read_all(tmpdir, d, &data, &len), GP_ERR_IO);
    CHECK(data == NULL && len == 0);
    CHECK_EQ_INT(diag_first_error_no(d), 1101);
    CHECK(strstr(diag_first_error_text(d), strerror(EISDIR)) != NULL);
    diag_free(d);
}

static void remove_tmpdir(void)
{
    static const char *names[] = {"a.v", "a.v.gz", "b.v", "p.v", "p.v.gz", "all.gz",
                                  "small.lib", "empty", "one", "multi.gz", "junk.gz",
                                  "good.gz", "half.gz", "no_trailer.gz", "header_only.gz", "big.v",
                                  "bad_crc.gz"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(tmp_path(names[i]));
    CHECK_EQ_INT(rmdir(tmpdir), 0);
}

int main(void)
{
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    make_content();
    mem_stats before = mem_get_stats();
    RUN(test_plain_and_gzip_give_the_same_bytes);
    RUN(test_read_all);
    RUN(test_read_all_large_in_parts);
    RUN(test_concatenated_members);
    RUN(test_trailing_garbage_is_a_warning);
    RUN(test_truncated_and_corrupt_gzip);
    RUN(test_cannot_open);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
    remove_tmpdir();
    free(content);
    return check_exit_code();
}

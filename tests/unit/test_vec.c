/* test_vec.c: the typed growable vectors. */
#include "check.h"
#include "util/vec.h"

struct pair {
    int a;
    double b;
};
VEC_DECLARE(vec_pair, struct pair)

static void test_push_grows_by_doubling(void)
{
    vec_i32 v = {0};
    int wrong = 0;
    for (int i = 0; i < 1000; i++)
        CHECK(vec_i32_push(&v, i * 3 - 7));
    for (int i = 0; i < 1000; i++)
        wrong += v.data[i] != i * 3 - 7;
    CHECK_EQ_INT(wrong, 0);
    CHECK_EQ_INT(v.len, 1000);
    CHECK_EQ_INT(v.cap, 1024); /* 8 doubled seven times */
    vec_i32_free(&v);
    CHECK(v.data == NULL && v.len == 0 && v.cap == 0);
}

static void test_pop_is_last_in_first_out(void)
{
    vec_u64 v = {0};
    uint64_t x = 42;
    CHECK(!vec_u64_pop(&v, &x));
    CHECK_EQ_INT(x, 42);
    vec_u64_push(&v, 10);
    vec_u64_push(&v, UINT64_MAX);
    CHECK(vec_u64_pop(&v, &x));
    CHECK(x == UINT64_MAX);
    CHECK(vec_u64_pop(&v, NULL));
    CHECK_EQ_INT(v.len, 0);
    CHECK(!vec_u64_pop(&v, &x));
    vec_u64_free(&v);
}

static void test_resize_zero_fills_new_elements(void)
{
    vec_f64 v = {0};
    vec_f64_push(&v, 1.5);
    vec_f64_push(&v, 2.5);
    vec_f64_push(&v, 3.5);
    CHECK(vec_f64_resize(&v, 10));
    CHECK_EQ_INT(v.len, 10);
    CHECK(v.data[2] == 3.5 && v.data[3] == 0.0 && v.data[9] == 0.0);
    size_t cap = v.cap;
    CHECK(vec_f64_resize(&v, 2));
    CHECK_EQ_INT(v.len, 2);
    CHECK_EQ_INT(v.cap, cap);
    CHECK(vec_f64_resize(&v, 5)); /* the old 3.5 must not come back */
    CHECK(v.data[1] == 2.5 && v.data[2] == 0.0 && v.data[4] == 0.0);
    vec_f64_free(&v);
}

static void test_reserve_and_overflow(void)
{
    vec_u64 v = {0};
    CHECK(vec_u64_reserve(&v, 100));
    CHECK_EQ_INT(v.cap, 128);
    CHECK_EQ_INT(v.len, 0);
    vec_u64_push(&v, 5);
    uint64_t *data = v.data;
    CHECK(!vec_u64_reserve(&v, SIZE_MAX / 4));     /* more elements than size_t bytes */
    CHECK(!vec_u64_reserve(&v, SIZE_MAX / 8));     /* representable, but no memory */
    CHECK(!vec_u64_resize(&v, SIZE_MAX / 8 - 1));
    CHECK(v.data == data && v.len == 1 && v.cap == 128 && v.data[0] == 5);
    vec_u64_free(&v);
}

static void test_other_element_types(void)
{
    mem_stats before = mem_get_stats();
    vec_ptr p = {0};
    vec_u8 b = {0};
    vec_pair s = {0};
    int x;
    vec_ptr_push(&p, &x);
    vec_ptr_push(&p, NULL);
    for (int i = 0; i < 300; i++)
        vec_u8_push(&b, (uint8_t)i);
    vec_pair_push(&s, (struct pair){7, 0.25});
    CHECK(vec_pair_resize(&s, 3));
    CHECK(p.data[0] == &x && p.data[1] == NULL);
    CHECK_EQ_INT(b.data[299], 299 % 256);
    CHECK(s.data[0].a == 7 && s.data[0].b == 0.25 && s.data[2].a == 0 && s.data[2].b == 0.0);
    CHECK(mem_get_stats().current_bytes > before.current_bytes);
    vec_ptr_free(&p);
    vec_u8_free(&b);
    vec_pair_free(&s);
    CHECK_EQ_INT(mem_get_stats().current_bytes, before.current_bytes);
}

int main(void)
{
    RUN(test_push_grows_by_doubling);
    RUN(test_pop_is_last_in_first_out);
    RUN(test_resize_zero_fills_new_elements);
    RUN(test_reserve_and_overflow);
    RUN(test_other_element_types);
    return check_exit_code();
}

//===- Preprocessor.h - macro helpers of the registration macros -*- C++ -*-===//
#ifndef TESSEL_DSL_PREPROCESSOR_H
#define TESSEL_DSL_PREPROCESSOR_H

#define TESSEL_PP_CAT(a, b) TESSEL_PP_CAT_I(a, b)
#define TESSEL_PP_CAT_I(a, b) a##b
#define TESSEL_PP_STR(...) TESSEL_PP_STR_I(__VA_ARGS__)
#define TESSEL_PP_STR_I(...) #__VA_ARGS__

/// Number of arguments, 1 to 32.
#define TESSEL_PP_NARGS(...)                                                                       \
  TESSEL_PP_NARGS_I(__VA_ARGS__, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,   \
                    16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define TESSEL_PP_NARGS_I(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16,   \
                          _17, _18, _19, _20, _21, _22, _23, _24, _25, _26, _27, _28, _29, _30,    \
                          _31, _32, N, ...)                                                        \
  N

/// M(fixed, x) for each x of the arguments (up to 32).
#define TESSEL_PP_FOR_EACH(M, fixed, ...)                                                          \
  TESSEL_PP_CAT(TESSEL_PP_FOR_EACH_, TESSEL_PP_NARGS(__VA_ARGS__))(M, fixed, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_1(M, f, x) M(f, x)
#define TESSEL_PP_FOR_EACH_2(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_1(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_3(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_2(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_4(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_3(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_5(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_4(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_6(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_5(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_7(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_6(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_8(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_7(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_9(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_8(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_10(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_9(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_11(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_10(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_12(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_11(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_13(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_12(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_14(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_13(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_15(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_14(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_16(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_15(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_17(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_16(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_18(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_17(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_19(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_18(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_20(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_19(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_21(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_20(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_22(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_21(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_23(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_22(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_24(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_23(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_25(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_24(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_26(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_25(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_27(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_26(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_28(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_27(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_29(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_28(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_30(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_29(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_31(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_30(M, f, __VA_ARGS__)
#define TESSEL_PP_FOR_EACH_32(M, f, x, ...) M(f, x) TESSEL_PP_FOR_EACH_31(M, f, __VA_ARGS__)

#endif // TESSEL_DSL_PREPROCESSOR_H

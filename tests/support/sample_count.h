#pragma once
/// \file
/// How many samples the long property tests draw. Every build of the CI matrix (scripts/test.sh,
/// scripts/second-build.sh) draws them all; under AddressSanitizer (scripts/sanitize.sh: a Debug
/// build that runs them about thirty times slower) a tenth, so that job's time stays bounded.
/// The tests assert the count they drew either way.

namespace collide::test {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr int kSampleDivisor = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr int kSampleDivisor = 10;
#else
inline constexpr int kSampleDivisor = 1;
#endif
#else
inline constexpr int kSampleDivisor = 1;
#endif

/// True under AddressSanitizer: tests whose cases are not a count (kill points, seeds, rates)
/// take a smaller set there.
inline constexpr bool kSanitized = kSampleDivisor > 1;

/// `full` samples, or a tenth of them under AddressSanitizer.
constexpr int sample_count(int full) { return full / kSampleDivisor; }

} // namespace collide::test

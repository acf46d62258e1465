// Package fit fits surge's distributions and arrival processes to real
// traces, so that a measured workload can be written out as a spec.
//
// It works on plain slices (arrival times in seconds, token counts), so it
// does not depend on how a trace was read:
//
//   - Exponential, Gamma, Weibull and LogNormal are maximum-likelihood fits
//     with location 0; MomentGamma matches the mean and variance, as ServeGen
//     does. Each Fit carries its log-likelihood, its one-sample
//     Kolmogorov–Smirnov distance and the dist.Dist it describes.
//   - Best fits every family, keeps the one nearest the data by KS distance
//     and grades it good, fair or poor (see GradeKS); a poor fit falls back
//     to an empirical quantile table (QuantileTable).
//   - Arrivals fits the gaps between arrival times and also finds timestamp
//     grids (DetectGrid: requests stamped in slots), on/off behaviour
//     (DetectOnOff: empty minutes) and the smoothed rate curve (RateCurve);
//     ArrivalFit.Process picks the process a spec should state.
//   - Lengths fits input and output lengths and measures their dependence
//     (Spearman and Pearson correlation), which a spec cannot state.
//   - Groups splits a trace by client, model or log type, and Spec writes
//     the fits as a commented version-1 YAML spec, one client per group.
//
// Zero and negative samples cannot enter a location-0 likelihood: the
// fitters drop them and report how many (Fit.Dropped). For arrivals this
// means tied timestamps are left out of the gap fits and reported
// (ArrivalFit.Ties); this is the rule that reproduces the published fits of
// the Mooncake synthetic trace (rate 3.895/s from its 3,981 positive gaps).
// When most gaps are ties the trace is on a grid, and the counts per slot,
// not the gaps, describe the arrivals.
//
// Statistical caveats are returned as Warnings on the results; nothing here
// does I/O, and every function is safe for concurrent use.
package fit

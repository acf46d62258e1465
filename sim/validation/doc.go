// Package validation checks the built-in engine, as `surge sim` runs it,
// against the published measurements of shared/reference
// (sim_calibration.json): each row the command line can express becomes a
// workload and a set of engine flags (Express), runs through
// harness.NewVirtual and harness.Run (Measure), and its figure is set
// beside the published one (Markdown writes docs/sim-validation.md).
package validation

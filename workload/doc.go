// Package workload describes what must run: workloads, their requirements,
// interruption tolerance, data and setup effort, and the demand curves of
// services.
//
// The package is a leaf: it imports nothing else from gputco. GPU models are
// plain strings that match the provider catalog ("H100 SXM", "A100 80GB",
// "H200", "V100", "L40S", "RTX 4090"); isolation and fabric are this
// package's own enumerations, ordered like the provider package's.
//
// # Workloads
//
// A [Workload] is either a finite job (Demand == nil, WorkGPUHours > 0, GPUs
// is the gang size) or a service (Demand != nil, GPUs is the number of GPUs at
// peak demand, Horizon > 0). Work is measured in reference GPU-hours: one hour
// of one GPU whose speed factor is 1 (the H100 SXM by default, see
// [DefaultSpeedFactors]). [Workload.Validate] returns every problem at once.
// Workloads and scenarios (lists of workloads) load from and save to JSON
// with durations as Go duration strings ("720h0m0s") and money as decimal
// strings.
//
// # Curves
//
// A [Curve] gives demand over time as a fraction of the workload's peak GPUs.
// Time t is measured from the start of the horizon; t = 0 is a Monday 00:00
// for the curves that care about the day of the week. Built-ins: [Constant],
// [Diurnal], [Weekly], [Steps], [PiecewiseLinear] (see also [ReadSamplesCSV]),
// [Growth], and the combinators [Sum], [Scale], [Clamp], [Shift], [Repeat]
// and [Window] (a curve from a launch date on, or until a retirement). Any type with the two methods of [Curve] is a curve; to read a
// curve type of your own from JSON, register a [CurveDecoder] for its "type"
// in a [Decoder] and decode with [Decoder.Curve], [Decoder.Workload] or
// [Decoder.Scenario].
//
// # Analysis
//
// [Mean], [Peak], [Quantile], [LoadDuration], [HoursAbove] and [Discretize]
// answer the questions the tco and placement packages ask of a curve. They
// sample the curve on a grid ([Sample] returns a [Profile] for repeated
// questions), use closed forms where a curve offers one ([Meaner]) and gonum
// for the numerics. They return errors, never panic, for NaN, infinite or
// negative demand and for invalid curve parameters. [Cycle] tells the
// cycle of a curve's pattern where it does not repeat exactly (a daily
// pattern that grows; a curve of your own says it with [Cycler]), so that
// a planner can treat each hour of the day alike across a week.
//
// # Errors
//
// Validation returns every problem at once (up to [MaxProblems]); each is a
// [*FieldError] naming the field by its path in the workload's JSON — the
// keys a file has, dotted, indices and model names in brackets:
// "requirements.interconnect.fabric", "demand.steps[2].start",
// "requirements.models[H100 SXM]" — whether the workload was read from a
// file or built in Go, as the provider package names an offer's fields. The
// parameters of functions are named as in Go ("peakToTrough", "slices").
// Every error wraps one of the sentinels, shared with the provider package
// where both report the same kind of problem, so [errors.Is] works.
//
// # Limits
//
// Every input is bounded so that no request can take unbounded work or
// memory, and no figure silently wraps around; each limit is checked once,
// by validation or decoding, with an error naming it:
//   - [MaxGPUs] bounds Workload.GPUs (2²⁴);
//   - [MaxSamples] bounds the samples of any analysis (2²⁰);
//   - [MaxCurveNodes] bounds the curves in one demand curve's tree (64), so
//     that sampling a million times stays within about a second;
//   - [MaxCurveDepth] bounds the nesting of combinators in JSON (32), and
//     the decoder stops at MaxCurveNodes curves as validation does;
//   - [MaxNumberLen] bounds the text of a money amount in JSON (64
//     characters, as in the provider package);
//   - [MaxProblems] bounds the problems one validation or read lists (100);
//     the rest are counted in a final [*MoreProblemsError];
//   - [MaxEchoBytes] bounds how much of a value or field path an error
//     message quotes (64 bytes);
//   - a [Shift] whose t + Offset leaves time.Duration's range (±292 years)
//     is evaluated at the same phase of a periodic curve and is NaN (an
//     error in analysis) for an aperiodic one.
package workload

// Package host is the Host boundary: the one door out of a sandbox that
// every backend and every worker process speaks.
//
// A backend ([Backend]) prepares a [Request] into a [Program]; the program
// runs with a [Host] and nothing else, and ends with an [Exit]. Everything
// it does outside its sandbox is a [Call] of a [CallKind] (a filesystem
// operation, a host-module function, a fetch, a nested run) with plain
// JSON-compatible arguments and results, encoded for the journal by
// [EncodeValue]; output is [Host.Write]; the clock and randomness are
// [Host.Now] and [Host.Random]. The package also holds what serves those
// calls in the parent process: the live host ([NewHost]), the sandbox's
// file operations confined to a backend's root ([FSOps]) and fetch under
// the outbound policy ([Outbound]), with the [Limits] they enforce.
//
// Orchestration (runs, handles, policies, the journal, recovery) is package
// runtime's, which only the parent process links: a backend or a worker
// imports this package, never runtime. See runtime/RATIONALE.md.
package host

// Package scenario runs replay conformance suites: recorded runs of
// model-written code, kept as test cases, that must replay to the same
// calls, output and files after any upgrade of nook, of the host modules,
// or of the code itself.
//
// A scenario is one txtar archive (the format of golang.org/x/tools/txtar,
// parsed here): a comment saying what it checks, then files.
//
//	-- scenario.json --     the run: see [Config] (version 1)
//	-- main.js --           the program: main.js, main.ts, main.sh, or
//	                        main.wasm.b64 (a WASI module, base64, whose
//	                        SHA-256 scenario.json names)
//	-- files/PATH --        a file at /workspace/PATH before the run
//	-- want/result.json --  the program's value (callable backends)
//	-- want/stdout --       the whole standard output
//	-- want/stderr --       the whole standard error (default: empty)
//	-- want/files/PATH --   a file the run must leave at /workspace/PATH
//
// Expectations may hold placeholders: <*> matches any value; <$name>
// matches any value and binds it, so every other <$name> (in the output or
// the result) must be the same text. In want/result.json a placeholder is a
// whole JSON string ("<*>") and matches any scalar. A line
// "<<for i=A..B>>TEXT" of an expected output stands for the lines TEXT with
// {i} replaced by A, A+1, ..., B.
//
// Host modules and fetch are fakes recorded in scenario.json: canned
// results matched by function and arguments in call order (see [Fake]),
// and HTTP exchanges matched by method and URL in order (see [Exchange]).
// A module the scenario fakes is answered by its fakes even where the
// runner has a real one (Options.Host). The guest's n-th clock read gets
// Config.ClockReads[n] (nanoseconds after Config.Clock, as a recorded run
// read them), and past them the clock advances one millisecond a read;
// randomness comes from Config.Seed; the timers fire as Config.Timers
// recorded them. Guest time is virtual
// (runtime.Options.VirtualTime): a timer or sleep with nothing else to
// wait for ends at once. So a scenario runs the same every time, in any
// workspace, at CPU speed.
//
// [Run] runs one scenario uninterrupted; with Options.Interrupt it also
// crashes it after each of its host calls and resumes it, under each
// interrupt policy, in a fresh process's view of the database the crash
// left: replay must give the uninterrupted result, output and files, with
// the fakes executed as often (plus the calls in flight at the crash);
// restart must give the same result (for a scenario that does not say
// "restart": "any"; a failed restart case names that setting); fail must
// fail the run, naming the interruption. An output, value or file that
// does not match is reported as a unified diff of want/NAME to got/NAME.
// [Test] does this from go test; `nook conformance run` from the command
// line; [Export] turns a finished run with its kept journal into a
// scenario that replays it: its clock readings, seed, the files it read
// and the host-module results it got, and "restart": "any" for a program
// that a restart would not run the same way (see Scenario.Notes).
package scenario

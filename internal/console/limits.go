package console

import "time"

// Limits of the console. Each bounds what one page reads or shows; a page
// that reaches one says so.
const (
	// DefaultSessionTTL is how long a session lasts after its login
	// (Options.SessionTTL).
	DefaultSessionTTL = 12 * time.Hour
	// DefaultMaxSessions bounds the sessions held at once
	// (Options.MaxSessions); past it a login ends the session nearest its
	// expiry.
	DefaultMaxSessions = 1024
	// RunsPerPage is how many runs a page of the runs list shows.
	RunsPerPage = 50
	// MaxRunsListed bounds how far the runs list pages (MaxRunsListed
	// runs, newest first).
	MaxRunsListed = 10000
	// MaxPageOutput bounds the output a run page shows as it loads; live
	// output after it streams by server-sent events.
	MaxPageOutput = 1 << 20
	// MaxJournalCalls bounds the host calls a run page lists.
	MaxJournalCalls = 1000
	// MaxValueBytes bounds each JSON value shown (a call's arguments or
	// result, a payload, a run's value); longer ones are cut with a note.
	MaxValueBytes = 16 << 10
	// MaxInbox bounds the waiting calls the inbox shows.
	MaxInbox = 500
	// MaxAnswerBytes bounds an answer typed into the inbox.
	MaxAnswerBytes = 64 << 10
	// MaxFormBytes bounds a form's body.
	MaxFormBytes = 128 << 10
	// MaxAnswersShown bounds the recent answers the inbox lists.
	MaxAnswersShown = 50
	// FilesPerPage is how many entries a page of a directory shows.
	FilesPerPage = 200
	// MaxFileView bounds the bytes of a file the file view shows.
	MaxFileView = 1 << 20
	// MaxImageView bounds the size of an image the file view shows (and
	// its bytes served for it).
	MaxImageView = 8 << 20
	// ChangesPerPage is how many change-feed entries a page shows.
	ChangesPerPage = 200
	// MaxDiffEntries bounds the differences a comparison of checkpoints
	// lists.
	MaxDiffEntries = 2000
)

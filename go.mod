module github.com/nookdev/nook

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/ncruces/go-sqlite3 v0.37.0
	golang.org/x/term v0.47.0
)

require (
	github.com/ncruces/go-sqlite3-wasm/v6 v6.5.35401 // indirect
	github.com/ncruces/julianday v1.0.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

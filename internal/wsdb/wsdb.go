// Package wsdb lets the packages of the module that share a workspace's
// database (the journal, which commits next to the filesystem, and tests
// that must reach the raw tables) get at it, without any public API naming
// the internal database type.
package wsdb

import "github.com/nookdev/nook/internal/sqldb"

var dbOf func(fsys any) *sqldb.DB

// Register is called once, by package vfs when it is initialised: db
// returns the database of a *vfs.FS.
func Register(db func(fsys any) *sqldb.DB) { dbOf = db }

// DB returns the database the *vfs.FS fsys lives in.
func DB(fsys any) *sqldb.DB { return dbOf(fsys) }

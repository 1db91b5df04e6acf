package awk

// The syntax tree. Variables are resolved at parse time: a global is an
// index into the interpreter's globals, a function parameter an index
// into the current frame.

type expr interface{ isExpr() }

type stmt interface{ isStmt() }

type (
	numLit   struct{ v float64 }
	strLit   struct{ s string }
	regexLit struct{ re string } // in a value context, matches $0
	varRef   struct {
		local bool
		idx   int
		name  string
	}
	fieldRef  struct{ index expr }
	indexExpr struct {
		arr   *varRef
		index []expr
	}
	assignExpr struct {
		lhs expr // varRef, fieldRef or indexExpr
		op  tok  // tAssign or an operator-assignment
		rhs expr
	}
	condExpr   struct{ c, a, b expr }
	binaryExpr struct {
		op   tok
		l, r expr
	}
	concatExpr struct{ l, r expr }
	andExpr    struct{ l, r expr }
	orExpr     struct{ l, r expr }
	matchExpr  struct {
		l   expr
		re  expr
		neg bool
	}
	unaryExpr struct {
		op tok // tSub, tAdd, tNot
		e  expr
	}
	incdecExpr struct {
		lhs expr
		pre bool
		inc bool
	}
	inExpr struct {
		index []expr
		arr   *varRef
	}
	callExpr struct {
		name string
		fn   *function
		args []expr
	}
	builtinExpr struct {
		name string
		args []expr
	}
	getlineExpr struct {
		kind int  // getlinePlain, getlineFile, getlineCmd
		lhs  expr // nil: $0
		src  expr // file or command
	}
	groupExpr struct{ exprs []expr }
)

const (
	getlinePlain = iota
	getlineFile
	getlineCmd
)

func (numLit) isExpr()      {}
func (strLit) isExpr()      {}
func (regexLit) isExpr()    {}
func (varRef) isExpr()      {}
func (fieldRef) isExpr()    {}
func (indexExpr) isExpr()   {}
func (assignExpr) isExpr()  {}
func (condExpr) isExpr()    {}
func (binaryExpr) isExpr()  {}
func (concatExpr) isExpr()  {}
func (andExpr) isExpr()     {}
func (orExpr) isExpr()      {}
func (matchExpr) isExpr()   {}
func (unaryExpr) isExpr()   {}
func (incdecExpr) isExpr()  {}
func (inExpr) isExpr()      {}
func (callExpr) isExpr()    {}
func (builtinExpr) isExpr() {}
func (getlineExpr) isExpr() {}
func (groupExpr) isExpr()   {}

type (
	printStmt struct {
		printf bool
		args   []expr
		redir  tok // 0, tGT, tAppend or tPipe
		dest   expr
	}
	exprStmt  struct{ e expr }
	blockStmt struct{ body []stmt }
	ifStmt    struct {
		cond       expr
		then, els_ stmt
	}
	whileStmt struct {
		cond expr
		body stmt
	}
	doStmt struct {
		body stmt
		cond expr
	}
	forStmt struct {
		init stmt // may be nil
		cond expr // may be nil
		post stmt // may be nil
		body stmt
	}
	forInStmt struct {
		v    expr // the loop variable (an lvalue)
		arr  *varRef
		body stmt
	}
	nextStmt     struct{}
	nextfileStmt struct{}
	exitStmt     struct{ e expr }
	returnStmt   struct{ e expr }
	breakStmt    struct{}
	continueStmt struct{}
	deleteStmt   struct {
		arr   *varRef
		index []expr // nil: the whole array
	}
)

func (printStmt) isStmt()    {}
func (exprStmt) isStmt()     {}
func (blockStmt) isStmt()    {}
func (ifStmt) isStmt()       {}
func (whileStmt) isStmt()    {}
func (doStmt) isStmt()       {}
func (forStmt) isStmt()      {}
func (forInStmt) isStmt()    {}
func (nextStmt) isStmt()     {}
func (nextfileStmt) isStmt() {}
func (exitStmt) isStmt()     {}
func (returnStmt) isStmt()   {}
func (breakStmt) isStmt()    {}
func (continueStmt) isStmt() {}
func (deleteStmt) isStmt()   {}

// item is a pattern-action pair. A nil action prints $0; a nil pattern
// matches every record; pattern2 != nil makes a range.
type item struct {
	pattern, pattern2 expr
	action            []stmt
	hasAction         bool
}

type function struct {
	name    string
	params  []string
	nlocals int
	body    []stmt
}

// Program is a parsed awk program.
type Program struct {
	begin   [][]stmt
	end     [][]stmt
	items   []item
	funcs   map[string]*function
	globals map[string]int
	nglob   int
}

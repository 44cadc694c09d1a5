package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCacheCap bounds the statements a stmtCache keeps: the read path's
// queries are a handful of constants, and a query built from its
// arguments past the bound is prepared per transaction, as before.
const stmtCacheCap = 32

// readIdleConns is how many read connections the pool keeps idle: each
// keeps the statements prepared on it, so a read that finds one parses
// nothing (database/sql's default is 2, and docket mcp runs a read per
// request in flight).
const readIdleConns = 8

// stmtCache holds statements prepared on a *sql.DB, across transactions
// (dk-hr4): database/sql keeps each one's prepared form per connection,
// and Tx.StmtContext reuses the form already prepared on the
// transaction's connection, so a read on an idle connection skips
// SQLite's parse of the statement.
type stmtCache struct {
	db *sql.DB
	mu sync.Mutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, m: map[string]*sql.Stmt{}}
}

// in returns q prepared for tx: from the cache, or prepared on the
// database and cached while there is room, or else on tx alone.
func (c *stmtCache) in(ctx context.Context, tx *sql.Tx, q string) (*sql.Stmt, error) {
	st, ok, err := c.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	if !ok {
		return tx.PrepareContext(ctx, q)
	}
	return tx.StmtContext(ctx, st), nil
}

// stmt returns q prepared on the database, from the cache or prepared and
// cached now; false when the cache is full.
func (c *stmtCache) stmt(ctx context.Context, q string) (*sql.Stmt, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st, true, nil
	}
	if len(c.m) >= stmtCacheCap {
		return nil, false, nil
	}
	st, err := c.db.PrepareContext(ctx, q)
	if err != nil {
		return nil, false, err
	}
	c.m[q] = st
	return st, true, nil
}

// close closes the cached statements; the database is closed after.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q, st := range c.m {
		st.Close()
		delete(c.m, q)
	}
}

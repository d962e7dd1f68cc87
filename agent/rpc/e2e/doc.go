// Package e2e holds the end-to-end tests of the steer binary: they build it,
// then drive `steer run` and `steer rpc` on the scripted provider the way a
// user or an editor integration would.
package e2e

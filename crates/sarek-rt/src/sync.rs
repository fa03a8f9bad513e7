//! Locks that outlive a panic elsewhere.
//!
//! Every mutex in the runtime guards a cache, a pool, a ring position or a flag, each left
//! whole between statements, so a panic on another thread while it held the lock leaves
//! nothing half-written: the runtime takes the value as it is instead of failing every later
//! call with the poisoning.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, whether or not it is poisoned.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Waits on `condvar` with `guard`, whether or not the mutex is poisoned.
pub(crate) fn wait<'a, T>(condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    condvar.wait(guard).unwrap_or_else(PoisonError::into_inner)
}

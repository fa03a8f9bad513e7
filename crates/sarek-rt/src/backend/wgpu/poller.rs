//! Completion of GPU work without blocking the caller.
//!
//! wgpu reports completion (a mapped buffer, finished submissions) through callbacks that run
//! inside `Device::poll`. Blocking calls poll on their own thread. Futures instead register
//! with the device's poller: one background thread, started on first use, that polls while
//! any future waits, so an `await` never blocks its executor and works with any executor.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex};
use std::task::{Context, Poll, Waker};

/// A flag set by a wgpu callback, with the waker of the future waiting on it.
#[derive(Default)]
pub(crate) struct Completion {
    state: Mutex<(bool, Option<Waker>)>,
}

impl Completion {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Completion::default())
    }

    /// Marks the work done and wakes the waiting future.
    pub(crate) fn complete(&self) {
        let waker = {
            let mut state = crate::sync::lock(&self.state);
            state.0 = true;
            state.1.take()
        };
        if let Some(w) = waker {
            w.wake();
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        crate::sync::lock(&self.state).0
    }
}

#[derive(Default)]
struct State {
    waiting: usize,
    running: bool,
    shutdown: bool,
    /// The thread, joined when the device goes: a thread still inside the driver while the
    /// process exits crashed lavapipe's exit handlers (about one run in 70).
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The background poller of one device.
#[derive(Default)]
pub(crate) struct Poller {
    shared: Arc<(Mutex<State>, Condvar)>,
}

impl Poller {
    fn begin(&self, device: &wgpu::Device) {
        let (lock, cvar) = &*self.shared;
        let mut state = crate::sync::lock(lock);
        state.waiting += 1;
        if !state.running {
            state.running = true;
            let shared = self.shared.clone();
            let device = device.clone();
            let spawned = std::thread::Builder::new()
                .name("sarek-poller".into())
                .spawn(move || poll_loop(&shared, &device));
            match spawned {
                // A previous thread has returned (it cleared `running`); dropping its handle
                // detaches nothing that still runs.
                Ok(handle) => state.thread = Some(handle),
                Err(_) => {
                    state.running = false;
                    log::error!(
                        "sarek: could not start the poller thread; futures will not complete"
                    );
                }
            }
        }
        cvar.notify_all();
    }

    fn end(&self) {
        let (lock, _) = &*self.shared;
        let mut state = crate::sync::lock(lock);
        state.waiting = state.waiting.saturating_sub(1);
    }

    /// Stops the thread and waits for it to leave the driver.
    pub(crate) fn shutdown(&self) {
        let (lock, cvar) = &*self.shared;
        let handle = {
            let mut state = crate::sync::lock(lock);
            state.shutdown = true;
            state.thread.take()
        };
        cvar.notify_all();
        if let Some(h) = handle {
            if h.thread().id() != std::thread::current().id() {
                let _ = h.join();
            }
        }
    }

    /// A future that resolves when `completion` is set.
    pub(crate) fn wait(&self, device: &wgpu::Device, completion: Arc<Completion>) -> Wait {
        Wait {
            poller: self.shared.clone(),
            device: device.clone(),
            completion,
            registered: false,
        }
    }
}

fn poll_loop(shared: &(Mutex<State>, Condvar), device: &wgpu::Device) {
    let (lock, cvar) = shared;
    loop {
        {
            let mut state = crate::sync::lock(lock);
            while state.waiting == 0 && !state.shutdown {
                state = crate::sync::wait(cvar, state);
            }
            if state.shutdown {
                state.running = false;
                return;
            }
        }
        match device.poll(wgpu::PollType::wait_indefinitely()) {
            // Nothing in flight but a future still waits (its callback runs on the next
            // poll, or the device is lost): don't spin.
            Ok(status) if status.is_queue_empty() => {
                std::thread::sleep(std::time::Duration::from_micros(200))
            }
            Ok(_) => {}
            Err(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
        }
    }
}

/// Resolves when GPU work completes, without blocking.
pub(crate) struct Wait {
    poller: Arc<(Mutex<State>, Condvar)>,
    device: wgpu::Device,
    completion: Arc<Completion>,
    registered: bool,
}

impl Future for Wait {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        {
            let mut state = crate::sync::lock(&self.completion.state);
            if state.0 {
                drop(state);
                self.unregister();
                return Poll::Ready(());
            }
            state.1 = Some(cx.waker().clone());
        }
        if !self.registered {
            self.registered = true;
            Poller {
                shared: self.poller.clone(),
            }
            .begin(&self.device);
        }
        Poll::Pending
    }
}

impl Wait {
    fn unregister(&mut self) {
        if self.registered {
            self.registered = false;
            Poller {
                shared: self.poller.clone(),
            }
            .end();
        }
    }
}

impl Drop for Wait {
    fn drop(&mut self) {
        self.unregister();
    }
}

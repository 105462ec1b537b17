//! Running an agent on a blocking worker, bounded by the server's caps, and stopping it when
//! its request goes away.

use std::sync::Arc;

use yomi_core::StopFlag;

use crate::state::AppState;
use crate::ApiError;

/// Sets its flag when dropped while armed: held by a request handler across its `await`, it
/// stops the agent when the handler's future is dropped before the answer is ready (the client
/// closed the connection: the page aborted the request) or gives up waiting (a 504).
#[derive(Debug)]
pub(crate) struct StopOnDrop {
    flag: StopFlag,
    armed: bool,
}

impl StopOnDrop {
    pub(crate) fn new(flag: StopFlag) -> StopOnDrop {
        StopOnDrop { flag, armed: true }
    }

    /// The answer is ready: nothing to stop.
    pub(crate) fn disarm(&mut self) {
        self.armed = false;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.flag.stop();
        }
    }
}

/// Runs `work` on a blocking worker: waits at most [`ServeConfig::queue_wait`] for one (else
/// [`ApiError::Busy`]) and at most [`ServeConfig::answer_timeout`] for the answer (else
/// [`ApiError::Timeout`]). `flag` is set when the caller's future is dropped before the answer
/// (its client went away) and on a timeout, so that work watching it stops and frees its
/// worker. The worker's permit travels with the work: a worker stays taken until the work has
/// really finished.
///
/// [`ServeConfig::queue_wait`]: crate::ServeConfig::queue_wait
/// [`ServeConfig::answer_timeout`]: crate::ServeConfig::answer_timeout
pub(crate) async fn on_worker<T, F>(app: &AppState, flag: StopFlag, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, ApiError> + Send + 'static,
{
    let mut guard = StopOnDrop::new(flag);
    let permit = tokio::time::timeout(
        app.config.queue_wait,
        Arc::clone(&app.workers).acquire_owned(),
    )
    .await
    .map_err(|_| ApiError::Busy)?
    .map_err(|_| ApiError::Internal("the agent workers are closed".into()))?;
    let task = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work()
    });
    let limit = app.config.answer_timeout();
    let result = match tokio::time::timeout(limit, task).await {
        // The guard stays armed: the work is told to stop.
        Err(_) => {
            return Err(ApiError::Timeout {
                secs: limit.as_secs_f64(),
            })
        }
        Ok(Err(join)) => Err(ApiError::Internal(format!("the agent task failed: {join}"))),
        Ok(Ok(result)) => result,
    };
    guard.disarm();
    result
}

//! A server transport with its type erased: what [`McpServer::serve`](super::McpServer::serve)
//! serves on, so that rmcp's service loop (the biggest generic code a server has) is built
//! once, in this crate, and not again in every crate that serves tools.

use std::future::Future;
use std::pin::Pin;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::{DynamicTransportError, Transport};

/// A boxed future of a transport's.
type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// [`Transport`] in a form that can be boxed (its futures boxed, its error the dynamic one).
trait Erased: Send {
    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> Boxed<'static, Result<(), DynamicTransportError>>;
    fn receive(&mut self) -> Boxed<'_, Option<RxJsonRpcMessage<RoleServer>>>;
    fn close(&mut self) -> Boxed<'_, Result<(), DynamicTransportError>>;
}

impl<T: Transport<RoleServer> + 'static> Erased for T {
    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> Boxed<'static, Result<(), DynamicTransportError>> {
        let sent = Transport::send(self, item);
        Box::pin(async move { sent.await.map_err(DynamicTransportError::new::<T, _>) })
    }

    fn receive(&mut self) -> Boxed<'_, Option<RxJsonRpcMessage<RoleServer>>> {
        Box::pin(Transport::receive(self))
    }

    fn close(&mut self) -> Boxed<'_, Result<(), DynamicTransportError>> {
        let closed = Transport::close(self);
        Box::pin(async move { closed.await.map_err(DynamicTransportError::new::<T, _>) })
    }
}

/// Any server transport, boxed: one type for rmcp's service loop to be built for.
pub(crate) struct ErasedTransport(Box<dyn Erased>);

impl ErasedTransport {
    /// `transport`, boxed.
    pub(crate) fn new<T: Transport<RoleServer> + 'static>(transport: T) -> Self {
        ErasedTransport(Box::new(transport))
    }
}

impl Transport<RoleServer> for ErasedTransport {
    type Error = DynamicTransportError;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.0.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleServer>>> + Send {
        self.0.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.0.close()
    }
}

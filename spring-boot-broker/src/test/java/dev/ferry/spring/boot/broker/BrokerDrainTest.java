package dev.ferry.spring.boot.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ferry.bytes.ByteString;
import dev.ferry.client.SoapClient;
import dev.ferry.client.SoapResponse;
import dev.ferry.sample.EchoService;
import dev.ferry.server.Dispatcher;
import dev.ferry.server.SoapServer;
import dev.ferry.soap.SoapCodec;
import dev.ferry.soap.SoapVersion;
import dev.ferry.spring.boot.broker.internal.ManagedBroker;
import dev.ferry.xop.MtomPolicy;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestExecutionListeners;
import org.springframework.test.context.support.DependencyInjectionTestExecutionListener;
import org.springframework.test.context.support.DirtiesContextTestExecutionListener;

/**
 * Boot's shutdown drains the broker as {@code Broker.close()} does: its readiness and health
 * turn at once, new connections are taken for the drain delay, then refused, and the exchange
 * in flight finishes before the application has stopped.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE, properties = {
    "ferry.broker.drain-delay=1s",
    "ferry.broker.drain-timeout=20s", "spring.lifecycle.timeout-per-shutdown-phase=30s"})
@DirtiesContext // the test closes it
// and nothing may ask for it once closed: the listeners that publish test events do
@TestExecutionListeners(listeners = {DependencyInjectionTestExecutionListener.class,
    DirtiesContextTestExecutionListener.class},
    mergeMode = TestExecutionListeners.MergeMode.REPLACE_DEFAULTS)
class BrokerDrainTest {
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  private static final SoapCodec CODEC = SoapCodec.create();
  private static final CountDownLatch ARRIVED = new CountDownLatch(1);
  private static final CountDownLatch RELEASE = new CountDownLatch(1);
  private static final SoapServer BACKEND = backend();
  private static final SoapClient CLIENT = SoapClient.builder().timeout(Duration.ofSeconds(30))
      .build();

  @Autowired ConfigurableApplicationContext context;
  @Autowired ManagedBroker broker;
  @Autowired HealthIndicator ferryBrokerHealthIndicator;

  private static SoapServer backend() {
    Dispatcher slow = Dispatcher.builder().element(EchoService.REQUEST, request -> {
      ARRIVED.countDown();
      RELEASE.await(30, TimeUnit.SECONDS);
      return EchoService.echo(request);
    }).build();
    try {
      return SoapServer.builder().endpoint("/slow", slow).build().start();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @DynamicPropertySource
  static void route(DynamicPropertyRegistry registry) {
    // a list is bound from one property source: the whole route goes here
    registry.add("ferry.broker.routes[0].path", () -> "/slow");
    registry.add("ferry.broker.routes[0].to", () -> BACKEND.uri("/slow").toString());
  }

  @AfterAll
  static void stop() throws Exception {
    RELEASE.countDown();
    CLIENT.close();
    BACKEND.close();
  }

  @Test
  void aCallInFlightFinishesAndNewConnectionsAreRefusedOnceTheDelayIsOver() throws Exception {
    int port = broker.broker().port();
    CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> echo(
        broker.uri("/slow"), "in flight"));
    assertThat(ARRIVED.await(20, TimeUnit.SECONDS)).isTrue();

    CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
    await(broker::draining, "the drain to begin");
    assertThat(ferryBrokerHealthIndicator.health().getStatus().getCode())
        .isEqualTo("OUT_OF_SERVICE");
    // within the delay: readiness false, but a new connection is still taken and answered
    HttpResponse<String> ready = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        broker.uri("/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(ready.statusCode()).isEqualTo(503);
    assertThat(ready.body()).contains("draining");

    await(() -> refused(port), "the listener to close after the drain delay");
    assertThat(closing).as("shutdown waits for the exchange in flight").isNotDone();
    assertThat(call).isNotDone();

    RELEASE.countDown();
    assertThat(call.get(20, TimeUnit.SECONDS)).isEqualTo("in flight");
    closing.get(20, TimeUnit.SECONDS);
    assertThat(broker.isRunning()).isFalse();
    assertThatThrownBy(() -> new Socket("127.0.0.1", port).close())
        .isInstanceOf(ConnectException.class);
  }

  private static boolean refused(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as("waiting for " + what).isNegative();
      Thread.sleep(10);
    }
  }

  private static String echo(URI uri, String name) {
    try (SoapResponse r = CLIENT.call(uri, EchoService.request(CODEC, SoapVersion.SOAP_11,
        MtomPolicy.ALWAYS, name, ByteString.encodeUtf8("attached")),
        EchoService.SOAP_ACTION)) {
      assertThat(r.status()).isEqualTo(200);
      return EchoService.readEcho(r.message()).name();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}

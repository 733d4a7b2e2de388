package couchbench.memcache;

import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.function.Function;

/** Gatling EL strings turned into Java functions once, at the DSL boundary. */
final class El {

  private El() {}

  static Function<Session, String> string(String el) {
    return Expressions.expressionToJavaFunction(Expressions.toStringExpression(el));
  }

  static Function<Session, Long> number(String el) {
    return Expressions.expressionToJavaFunction(Expressions.toExpression(el, Long.class));
  }
}

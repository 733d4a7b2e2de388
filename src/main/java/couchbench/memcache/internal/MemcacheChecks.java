package couchbench.memcache.internal;

import couchbench.memcache.codec.MemcacheReply;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.check.Check;
import io.gatling.core.check.CheckMaterializer;
import io.gatling.core.check.FindExtractor;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.internal.CoreCheckType;
import io.gatling.javaapi.core.internal.Expressions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;
import scala.Function1;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Gatling checks on memcache replies: the memcache-specific ones (status word, values found, cas
 * unique, a stat), and Gatling's core body checks, which see the value's data as the body.
 */
public final class MemcacheChecks {

  private static final CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, MemcacheReply> REPLY =
      materializer(reply -> reply);
  private static final CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, String> TEXT =
      materializer(reply -> new String(ReplyForGatling.checkedBody(reply), StandardCharsets.UTF_8));
  private static final CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, byte[]> BYTES =
      materializer(ReplyForGatling::checkedBody);
  private static final CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, Integer> LENGTH =
      materializer(reply -> ReplyForGatling.checkedBody(reply).length);

  private MemcacheChecks() {}

  /**
   * A check on the reply that extracts one value, or none.
   *
   * @param type STATUS or REPLY
   * @param name the check's name in failure messages
   * @param javaClass the extracted value's class
   * @param extract the extraction, null when there is nothing to extract
   * @param <X> the extracted value's type
   * @return a Java DSL check builder (is, saveAs, ...)
   */
  public static <X> CheckBuilder.Find<X> find(
      MemcacheCheckType type, String name, Class<X> javaClass, Function<MemcacheReply, X> extract) {
    Function1<MemcacheReply, Validation<Option<X>>> extractor =
        reply -> new Success<>(Option.apply(extract.apply(reply)));
    // Scala's CheckBuilder.Find.Default lives in the companion object: javac knows it by its binary name.
    io.gatling.core.check.CheckBuilder.Find<Object, MemcacheReply, X> scala =
        new io.gatling.core.check.CheckBuilder$Find$Default<>(
            Expressions.toStaticValueExpression(new FindExtractor<>(name, extractor)), true);
    return new CheckBuilder.Find.Default<>(scala, type, javaClass, Function.identity());
  }

  /**
   * Whether a check replaces the default expectation of the reply.
   *
   * @param check a check builder
   * @return true for status checks
   */
  public static boolean isStatusCheck(CheckBuilder check) {
    return check.type() == MemcacheCheckType.STATUS;
  }

  /**
   * Builds the Java DSL checks into Gatling's engine checks.
   *
   * @param checks memcache checks and core body checks
   * @return the engine's checks
   * @throws IllegalArgumentException for a check type that means nothing on a memcache reply
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static scala.collection.immutable.List<Check<MemcacheReply>> build(List<CheckBuilder> checks) {
    List<Check<MemcacheReply>> built =
        checks.stream()
            .map(check -> (Check<MemcacheReply>) ((io.gatling.core.check.CheckBuilder) check.asScala())
                .build(materializerFor(check.type())))
            .toList();
    return CollectionConverters.asScala(built).toList();
  }

  private static CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, ?> materializerFor(
      CheckBuilder.CheckType type) {
    if (type instanceof MemcacheCheckType) {
      return REPLY;
    }
    if (type == CoreCheckType.BodyString || type == CoreCheckType.Substring || type == CoreCheckType.Regex) {
      return TEXT;
    }
    if (type == CoreCheckType.BodyBytes) {
      return BYTES;
    }
    if (type == CoreCheckType.BodyLength) {
      return LENGTH;
    }
    throw new IllegalArgumentException("memcache requests take bodyString, bodyBytes, bodyLength,"
        + " substring, regex and the memcache checks, not " + type);
  }

  private static <P> CheckMaterializer<Object, Check<MemcacheReply>, MemcacheReply, P> materializer(
      Function<MemcacheReply, P> prepare) {
    return new CheckMaterializer<>(check -> check) {
      @Override
      public Function1<MemcacheReply, Validation<P>> preparer() {
        return reply -> new Success<>(prepare.apply(reply));
      }
    };
  }
}

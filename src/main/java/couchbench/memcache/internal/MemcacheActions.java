package couchbench.memcache.internal;

import io.gatling.core.action.Action;
import io.gatling.core.action.builder.ActionBuilder;
import io.gatling.core.structure.ScenarioContext;
import java.util.Locale;

/** Builds the engine's memcache action for the Java DSL's action builder. */
public final class MemcacheActions {

  private MemcacheActions() {}

  /**
   * The Scala action builder Gatling's engine asks for.
   *
   * @param settings what the DSL said
   * @return the engine's action builder
   */
  public static ActionBuilder of(MemcacheActionSettings settings) {
    return new ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        GatlingVersionCheck.requireBuiltForVersion();
        MemcacheComponents components =
            (MemcacheComponents) ctx.protocolComponentsRegistry().components(MemcacheProtocol.KEY);
        return new MemcacheAction(
            "memcache-" + settings.command().kind().name().toLowerCase(Locale.ROOT),
            settings, components, next);
      }
    };
  }
}

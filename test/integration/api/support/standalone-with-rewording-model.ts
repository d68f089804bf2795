import { ScriptedModelProvider, type ScriptedStep } from '@lomo/llm';
import { runApp } from '@lomo/platform';
import { StandaloneModule } from '../../../../apps/standalone/src/standalone.module';

// The standalone as `npm start` runs it, with the executor's model replaced by one that only
// rewords the plan every turn and stops: the loop without progress that the runtime must stop.
const take = (n: number): ScriptedStep[] => [
  {
    label: `reword ${n}`,
    reply: {
      toolCalls: [
        {
          name: 'checklist.plan',
          arguments: {
            items: [
              { itemId: 'script', title: `Script (take ${n})` },
              { itemId: 'shots', title: `Shots (take ${n})`, dependsOn: ['script'] },
            ],
          },
        },
      ],
    },
  },
  { label: `stop ${n}`, reply: { text: `Plan revised (take ${n}).` } },
];

runApp('standalone', (config, logger) =>
  StandaloneModule.register(config, {
    logger,
    executor: { model: new ScriptedModelProvider([...take(1), ...take(2), ...take(3)]) },
  }),
);
